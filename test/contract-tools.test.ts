/**
 * openapi.yaml as other tools read it: Specmatic loads it without an error, and the types
 * openapi-typescript generates read every kind's kindData with full types (a future contract
 * change that breaks SDK generation fails here). The tools live in test/runtimes (installed when first needed).
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { kindDataProbe } from './support/kind-data-probe.js';
import { missing } from './support/requirements.js';
import { ensureRuntimes } from './support/runtimes.js';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..');
const runtimes = ensureRuntimes();
const work = mkdtempSync(join(tmpdir(), 'contract-tools-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

type Outcome = { code: number; stdout: string; stderr: string };
const outcome = (p: Promise<{ stdout: string; stderr: string }>): Promise<Outcome> =>
  p.then((r) => ({ code: 0, ...r })).catch((e: { code?: number; stdout?: string; stderr?: string }) => ({ code: e.code ?? 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' }));

describe.skipIf(missing('java'))('Specmatic', () => {
  it('loads openapi.yaml with no error', async () => {
    const dir = join(work, 'specmatic');
    mkdirSync(join(dir, 'openapi_examples'), { recursive: true }); // no external examples: only the contract is read
    copyFileSync(join(root, 'openapi.yaml'), join(dir, 'openapi.yaml'));
    const result = await outcome(run('java', ['-jar', join(runtimes, 'specmatic/specmatic.jar'), 'examples', 'validate', '--spec-file', join(dir, 'openapi.yaml')], {
      cwd: dir, env: { ...process.env, SPECMATIC_DISABLE_TELEMETRY: 'true' }, maxBuffer: 64 << 20, timeout: 120_000,
    }));
    const output = `${result.stdout}\n${result.stderr}`;
    expect(output).not.toMatch(/Exception|ERROR/);
    expect(result.code, output.slice(-2000)).toBe(0);
  }, 150_000);
});

describe('openapi-typescript', () => {
  it('generates types that read each kind\'s kindData, narrowed by kind, and require one of the alternatives of a request', async () => {
    const dir = join(work, 'oat');
    mkdirSync(dir, { recursive: true });
    await run(process.execPath, [join(runtimes, 'openapi-typescript/bin/cli.js'), join(root, 'openapi.yaml'), '-o', join(dir, 'api.d.ts')], { cwd: dir, timeout: 60_000 });
    writeFileSync(join(dir, 'reader.ts'), kindDataProbe({
      imports: "import type { components } from './api.js';",
      deliverable: "components['schemas']['Deliverable']",
      topicRequest: "components['schemas']['TopicSuggestionRequest']",
      logoInput: "components['schemas']['ImageLogoInput']",
    }));
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', skipLibCheck: false, types: [] },
      files: ['reader.ts', 'api.d.ts'],
    }));
    const result = await outcome(run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', dir], { cwd: dir, timeout: 60_000 }));
    expect(result.stdout).toBe('');
    expect(result.code).toBe(0);
  }, 120_000);
});
