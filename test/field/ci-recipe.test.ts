import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { assertContract } from '../support/contract.js';
import { repeatRun } from '../support/once.js';
import { npmEnv, packedTarball, root, run } from '../package/packed.js';
import { freePort } from './support/nginx.js';

/**
 * The CI recipe a consumer copies (docs/recipes/ci), run as written in an empty project:
 * the shell script installs the packed package, starts content-sim, waits on /readyz, runs
 * content-contracts or the project's own command, and stops the simulator with SIGTERM.
 */
const recipeDir = join(root, 'docs', 'recipes', 'ci');
const script = join(recipeDir, 'contract-check.sh');
const children: ChildProcess[] = [];
let project: string;
let runnerTemp: string;
let tarball: string;
let projectManifest: string;

interface Outcome {
  code: number | null;
  output: string;
}

/** The script in the project, as CI runs it; its own process group so nothing outlives the test. */
function recipe(env: Record<string, string>, args: string[] = []): Promise<Outcome> {
  const child = spawn('bash', [script, ...args], {
    cwd: project,
    env: { ...npmEnv, npm_config_prefer_offline: 'true', RUNNER_TEMP: runnerTemp, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, output })));
}

/** Nothing listens on the port any more: the simulator is gone, not merely unready. */
async function expectRefused(port: number): Promise<void> {
  const error = await fetch(`http://127.0.0.1:${port}/healthz`).then(
    () => undefined,
    (e: Error) => e,
  );
  expect((error?.cause as NodeJS.ErrnoException | undefined)?.code).toBe('ECONNREFUSED');
}

describe.skipIf(repeatRun)('the CI recipe, in an empty project', () => {
  beforeAll(async () => {
    tarball = await packedTarball();
    project = mkdtempSync(join(tmpdir(), 'sim-ci-project-'));
    runnerTemp = mkdtempSync(join(tmpdir(), 'sim-ci-runner-'));
    await run('npm', ['init', '-y'], { cwd: project, env: npmEnv });
    projectManifest = readFileSync(join(project, 'package.json'), 'utf8');
  }, 240_000);

  afterAll(() => {
    for (const child of children.splice(0)) {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    for (const dir of [project, runnerTemp]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('installs from the tarball, passes the strict suite with a JUnit file, and stops the simulator', async () => {
    // A tarball kept in the repository, named relative to it.
    mkdirSync(join(project, 'vendor'));
    copyFileSync(tarball, join(project, 'vendor', 'content-service-simulator.tgz'));
    const port = await freePort();
    const result = await recipe({ CONTENT_SIM_PACKAGE: 'vendor/content-service-simulator.tgz', CONTENT_SIM_PORT: String(port), CONTRACT_REPORT_DIR: 'ci-reports/contracts' });
    expect(result.code, result.output).toBe(0);
    // npm 11 asks before a dependency's install script runs: the prefix allows this package's.
    expect(result.output).not.toContain('install-scripts');

    const junitPath = join(project, 'ci-reports', 'contracts', 'contracts-junit.xml');
    const junit = readFileSync(junitPath, 'utf8');
    const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(junit) as {
      testsuites: { tests: string; failures: string; testsuite: { name: string; testcase: { failure?: unknown }[] } };
    };
    const suite = parsed.testsuites.testsuite;
    expect(Number(parsed.testsuites.tests)).toBeGreaterThan(0);
    expect(Number(parsed.testsuites.failures)).toBe(0);
    expect(suite.testcase.length).toBe(Number(parsed.testsuites.tests));
    expect(suite.testcase.filter((c) => c.failure !== undefined)).toEqual([]);
    expect(suite.name).toBe(`contract suite, strict level, against http://127.0.0.1:${port}`);

    await expectRefused(port);
    // Stopped by SIGTERM and drained (the simulator's own line), not killed.
    expect(readFileSync(join(project, 'ci-reports', 'contracts', 'content-sim.log'), 'utf8')).toContain('content-sim: SIGTERM: draining');
    // Installed in a prefix of its own: the consumer's project is untouched.
    expect(readFileSync(join(project, 'package.json'), 'utf8')).toBe(projectManifest);
    expect(existsSync(join(project, 'node_modules'))).toBe(false);
    expect(existsSync(join(project, 'package-lock.json'))).toBe(false);
    expect(existsSync(join(runnerTemp, 'content-sim', 'node_modules', '.bin', 'content-sim'))).toBe(true);
  }, 120_000);

  it("runs the project's own command against the simulator it started, with CONTENT_SIM_URL", async () => {
    const port = await freePort();
    writeFileSync(join(project, 'probe.mjs'), `
      import { writeFileSync } from 'node:fs';
      const res = await fetch(process.env.CONTENT_SIM_URL + '/_sim');
      writeFileSync('probe.json', JSON.stringify({ url: process.env.CONTENT_SIM_URL, status: res.status, headers: Object.fromEntries(res.headers), body: await res.text() }));
    `);
    const result = await recipe(
      { CONTENT_SIM_INSTALL: '0', CONTENT_SIM_PORT: String(port), CONTENT_SIM_SEED: 'sdk-tests', CONTENT_SIM_ARGS: '--speed instant --quiet', CONTRACT_REPORT_DIR: 'sdk-reports' },
      ['node', 'probe.mjs'],
    );
    expect(result.code, result.output).toBe(0);

    const seen = JSON.parse(readFileSync(join(project, 'probe.json'), 'utf8')) as { url: string; status: number; headers: Record<string, string>; body: string };
    expect(seen.url).toBe(`http://127.0.0.1:${port}`);
    assertContract({ method: 'GET', url: '/_sim', status: seen.status, headers: seen.headers, body: seen.body });
    expect(JSON.parse(seen.body)).toMatchObject({ seed: 'sdk-tests', pipelineSpeed: 'instant' });
    await expectRefused(port);
  }, 60_000);

  it('asks for a tarball or a git URL when CONTENT_SIM_PACKAGE is not set, since the registry has no such package', async () => {
    const result = await recipe({ CONTENT_SIM_PORT: '1', CONTRACT_REPORT_DIR: 'unset-reports' });
    expect(result.code, result.output).toBe(3);
    expect(result.output).toContain('CONTENT_SIM_PACKAGE is not set: give npm a tarball');
    expect(result.output).not.toContain('installing');
  }, 60_000);

  it("returns the command's failure and still stops the simulator", async () => {
    const port = await freePort();
    const result = await recipe({ CONTENT_SIM_INSTALL: '0', CONTENT_SIM_PORT: String(port), CONTRACT_REPORT_DIR: 'failing-reports' }, ['false']);
    expect(result.code, result.output).toBe(1);
    expect(result.output).toContain('contract-check: simulator stopped');
    expect(readFileSync(join(project, 'failing-reports', 'content-sim.log'), 'utf8')).toContain('content-sim: SIGTERM: draining');
    await expectRefused(port);
  }, 60_000);

  it('checks a server of your own given CONTRACT_BASE_URL, starting and stopping nothing', async () => {
    const port = await freePort();
    const own = spawn(join(runnerTemp, 'content-sim', 'node_modules', '.bin', 'content-sim'), ['serve', '--port', String(port), '--quiet'], { stdio: 'ignore', detached: true });
    children.push(own);
    const readyz = `http://127.0.0.1:${port}/readyz`;
    let ready: Response | undefined;
    for (let attempt = 0; attempt < 100 && !ready?.ok; attempt++) {
      ready = await fetch(readyz).catch(() => undefined);
      if (!ready?.ok) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(ready?.ok).toBe(true);

    const result = await recipe({ CONTENT_SIM_INSTALL: '0', CONTRACT_BASE_URL: `http://127.0.0.1:${port}`, CONTRACT_LEVEL: 'documented', CONTRACT_REPORT_DIR: 'own-server-reports' });
    expect(result.code, result.output).toBe(0);
    expect(readFileSync(join(project, 'own-server-reports', 'contracts-junit.xml'), 'utf8')).toContain(`contract suite, documented level, against http://127.0.0.1:${port}`);
    expect(existsSync(join(project, 'own-server-reports', 'content-sim.log'))).toBe(false);
    // Still serving: the script stops only what it started.
    const res = await fetch(readyz);
    assertContract({ method: 'GET', url: '/readyz', status: res.status, headers: Object.fromEntries(res.headers), body: await res.text() });
    expect(res.status).toBe(200);
    own.kill('SIGTERM');
  }, 60_000);

  it('refuses a port that something else already answers on, instead of testing it', async () => {
    const squatter = createServer((_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
    const { port } = squatter.address() as { port: number };
    try {
      const result = await recipe({ CONTENT_SIM_INSTALL: '0', CONTENT_SIM_PORT: String(port), CONTRACT_REPORT_DIR: 'squatted-reports' }, ['true']);
      expect(result.code, result.output).toBe(3);
      expect(result.output).toContain(`something already answers on port ${port}`);
      expect(existsSync(join(project, 'squatted-reports', 'content-sim.log'))).toBe(false);
    } finally {
      await new Promise((resolve) => squatter.close(resolve));
    }
  }, 30_000);
});

describe('the recipe files', () => {
  const workflow = parseYaml(readFileSync(join(recipeDir, 'github-actions.yml'), 'utf8')) as {
    jobs: Record<string, { env?: Record<string, string>; steps: { uses?: string; run?: string; with?: Record<string, string> }[] }>;
  };
  const job = Object.values(workflow.jobs)[0]!;
  const readme = readFileSync(join(recipeDir, 'README.md'), 'utf8');

  it('runs the script from where the README says to copy it, and keeps the reports it writes', () => {
    const runStep = job.steps.find((step) => step.run?.includes('contract-check.sh'));
    const scriptPath = /(\S*contract-check\.sh)/.exec(runStep?.run ?? '')?.[1];
    expect(scriptPath).toBe('ci/contract-check.sh');
    expect(existsSync(join(recipeDir, 'contract-check.sh'))).toBe(true);
    expect(readme).toContain(`docs/recipes/ci/contract-check.sh\` to \`${scriptPath}\``);

    const reportDir = job.env?.CONTRACT_REPORT_DIR;
    expect(reportDir).toBeTruthy();
    const upload = job.steps.find((step) => step.uses?.startsWith('actions/upload-artifact@'));
    expect(upload?.with?.path).toMatch(new RegExp(`^${reportDir}/?$`));
    const publish = job.steps.find((step) => step.with?.report_paths);
    expect(publish?.with?.report_paths).toBe(`${reportDir}/contracts-junit.xml`);
  });

  it('sets up a Node the package supports', () => {
    const setup = job.steps.find((step) => step.uses?.startsWith('actions/setup-node@'));
    const major = Number(/^(\d+)/.exec(String(setup?.with?.['node-version']))?.[1]);
    const engines = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
    expect(major).toBeGreaterThanOrEqual(Number(/(\d+)/.exec(engines)?.[1]));
  });
});
