/**
 * openapi.yaml as more tools read it: Spectral's recommended rules find nothing, the clients
 * @hey-api/openapi-ts and orval generate read every kind's kindData with full types, and
 * Prism serves mocks from it whose every response our validator accepts. hey-api and orval
 * need Node 22, Prism Node 24: they run on the binaries of test/runtimes (installed when first needed).
 */
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { assertContract } from './support/contract.js';
import { kindDataProbe } from './support/kind-data-probe.js';
import { missing } from './support/requirements.js';
import { ensureRuntimes } from './support/runtimes.js';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..');
const runtimes = ensureRuntimes();
const node22 = join(runtimes, 'node22/bin/node');
const node24 = join(runtimes, 'node24/bin/node');
const work = mkdtempSync(join(tmpdir(), 'contract-generators-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
// No telemetry, no update checks, from any of them.
const quiet = { ...process.env, DO_NOT_TRACK: '1', SCARF_ANALYTICS: 'false', NO_UPDATE_NOTIFIER: '1', CI: 'true' };

/** Type-checks the probe against generated code in `dir`; answers tsc's output ('' when clean). */
async function typeCheck(dir: string, probe: string, files: string[]): Promise<string> {
  writeFileSync(join(dir, 'reader.ts'), probe);
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { strict: true, noEmit: true, target: 'es2022', lib: ['es2022', 'dom', 'dom.iterable'], module: 'esnext', moduleResolution: 'bundler', skipLibCheck: true, types: [] },
    files: ['reader.ts', ...files],
  }));
  return run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', dir], { cwd: dir, timeout: 90_000 })
    .then((r) => r.stdout)
    .catch((e: { stdout?: string }) => e.stdout || 'tsc failed');
}

describe('Spectral (recommended OpenAPI rules, .spectral.yaml)', () => {
  it('finds no error and no warning in either document', async () => {
    for (const doc of ['openapi.yaml', 'simulator-control.yaml']) {
      const result = await run(process.execPath, [join(runtimes, '@stoplight/spectral-cli/dist/index.js'), 'lint', doc, '-f', 'json', '--quiet'], { cwd: root, env: quiet, timeout: 60_000 })
        .then((r) => r.stdout)
        .catch((e: { stdout?: string }) => e.stdout ?? '[]');
      const findings = JSON.parse(result || '[]') as Array<{ code: string; message: string; path: string[] }>;
      expect(findings.map((f) => `${doc} ${f.code} ${f.path.join('.')}: ${f.message}`)).toEqual([]);
    }
  }, 120_000);
});

describe.skipIf(missing('node22'))('@hey-api/openapi-ts', () => {
  it('generates types that read each kind\'s kindData, narrowed by kind, and require one of the alternatives of a request', async () => {
    const dir = join(work, 'hey-api');
    await run(node22, [join(runtimes, '@hey-api/openapi-ts/bin/run.js'), '-i', join(root, 'openapi.yaml'), '-o', dir], { cwd: root, env: quiet, timeout: 90_000 });
    const output = await typeCheck(dir, kindDataProbe({
      imports: "import type { Deliverable, ImageLogoInput, TopicSuggestionRequest } from './types.gen';",
      deliverable: 'Deliverable',
      topicRequest: 'TopicSuggestionRequest',
      logoInput: 'ImageLogoInput',
    }), ['index.ts']);
    expect(output).toBe('');
  }, 150_000);
});

describe.skipIf(missing('node22'))('orval', () => {
  it('generates a fetch client whose types read each kind\'s kindData and require one of the alternatives', async () => {
    const dir = join(work, 'orval');
    mkdirSync(dir, { recursive: true });
    await run(node22, [join(runtimes, 'orval/dist/bin/orval.mjs'), '--input', join(root, 'openapi.yaml'), '--output', join(dir, 'api.ts'), '--client', 'fetch'], { cwd: dir, env: quiet, timeout: 90_000 });
    const output = await typeCheck(dir, kindDataProbe({
      imports: "import type { Deliverable, ImageLogoInput, TopicSuggestionRequest } from './api';",
      deliverable: 'Deliverable',
      topicRequest: 'TopicSuggestionRequest',
      logoInput: 'ImageLogoInput',
    }), ['api.ts']);
    expect(output).toBe('');
  }, 150_000);
});

describe.skipIf(missing('node24'))('Prism', () => {
  it('serves dynamic mocks of openapi.yaml that our validator accepts, and reports no violation of its own', async () => {
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const prism = spawn(node24, [join(runtimes, '@stoplight/prism-cli/dist/index.js'), 'mock', '-d', join(root, 'openapi.yaml'), '-p', String(port), '-h', '127.0.0.1'], { env: quiet, stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    prism.stdout.on('data', (c) => (log += c));
    prism.stderr.on('data', (c) => (log += c));
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`Prism did not start: ${log.slice(-2000)}`)), 60_000);
        const check = () => (/Prism is listening/.test(log) ? (clearTimeout(timer), resolve()) : setTimeout(check, 100));
        prism.once('exit', (code) => reject(new Error(`Prism exited ${code}: ${log.slice(-2000)}`)));
        check();
      });
      const key = `svc_live_${'a'.repeat(40)}`;
      for (const path of ['/api/v1/tokens/balance', '/api/v1/tokens/transactions', '/api/v1/targets', '/api/v1/builds', '/api/v1/keys', '/api/v1/images']) {
        const res = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { authorization: `Bearer ${key}` } });
        const body = await res.text();
        expect(res.headers.get('sl-violations'), path).toBeNull();
        const headers = Object.fromEntries([...res.headers].filter(([name]) => !name.startsWith('access-control-')));
        assertContract({ method: 'GET', url: path, status: res.status, headers, body });
      }
      expect(log).not.toMatch(/✖\s+error|fatal/i);
    } finally {
      prism.kill('SIGKILL');
    }
  }, 120_000);
});
