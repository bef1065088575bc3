/**
 * openapi.yaml as Python SDK developers read it: openapi-python-client 0.29 generates a client
 * with no warning, and that client runs the whole flow against the simulator, errors included,
 * as typed models. Every answer passes through the checking proxy, so it is held to the contract.
 *
 * The generator lives in a venv at test/runtimes/.venv that .ci/run makes (its dependencies
 * from test/runtimes/python-requirements.txt); where Python or the generator is not there, the
 * test skips and says so.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { startCheckingProxy } from './docs/checking-proxy.js';
import { startCli } from './support/cli-server.js';
import { repeatRun } from './support/once.js';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..');
const venv = join(root, 'test/runtimes/.venv/bin');
const generator = join(venv, 'openapi-python-client');
const work = mkdtempSync(join(tmpdir(), 'contract-python-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const absent = !existsSync(join(venv, 'python'))
  ? 'skipped: needs the venv test/runtimes/.venv (python3 -m venv test/runtimes/.venv; pip install -r test/runtimes/python-requirements.txt)'
  : !existsSync(generator)
    ? 'skipped: needs openapi-python-client 0.29 in test/runtimes/.venv (pip install "openapi-python-client==0.29.*" where the index has it)'
    : undefined;
if (absent) console.info(`contract-python-client: ${absent}`);

// The generator's own settings: it reads SVG and WAV files as bytes once told they are bytes (it
// knows only JSON, text and octet-stream by name), which is a setting, not a fault of the contract.
const CONFIG = 'content_type_overrides:\n  image/svg+xml: application/octet-stream\n  audio/wav: application/octet-stream\n';
const env = { ...process.env, PATH: `${venv}${delimiter}${process.env.PATH ?? ''}`, PYTHONDONTWRITEBYTECODE: '1' };

describe.skipIf(repeatRun || absent)('openapi-python-client', () => {
  it('generates a client with no warning, and that client runs the flow with typed answers and typed errors', async () => {
    writeFileSync(join(work, 'config.yaml'), CONFIG);
    const out = join(work, 'client');
    mkdirSync(out);
    const generated = await run(generator, ['generate', '--path', join(root, 'openapi.yaml'), '--meta', 'none', '--config', join(work, 'config.yaml')], { cwd: out, env, timeout: 120_000 });
    const said = `${generated.stdout}\n${generated.stderr}`;
    expect(said).not.toMatch(/warning|error/i);
    expect(existsSync(join(out, 'content_generation_service_api_client/api/builds/create_build.py'))).toBe(true);

    const simulator = await startCli();
    const proxy = await startCheckingProxy();
    proxy.target(simulator.baseUrl);
    try {
      const flow = await run(join(venv, 'python'), [join(root, 'test/support/python-client-flow.py'), proxy.url, out], { env, timeout: 180_000 })
        .catch((e: { stdout?: string; stderr?: string }) => ({ stdout: e.stdout ?? '', stderr: e.stderr ?? '' }));
      expect(flow.stderr).toBe('');
      expect(flow.stdout).not.toContain('FAILED');
      expect(flow.stdout).toMatch(/typed 404 NOT_FOUND/);
      expect(flow.stdout).toMatch(/typed 402 InsufficientTokensError/);
      expect(flow.stdout).toMatch(/ok: the Markdown download is a Markdown document\nok: the HTML download is an HTML document/);
      expect(flow.stdout.trim().split('\n').at(-1)).toBe('flow complete');
      expect(proxy.takeViolations()).toEqual([]);
    } finally {
      simulator.stop();
      await proxy.close();
    }
  }, 300_000);
});
