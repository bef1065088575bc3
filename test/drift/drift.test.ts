import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import harValidator from 'har-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkDrift } from '../../contracts/drift/command.js';
import type { Har } from '../../contracts/shared/har.js';
import { replayRecording } from '../../contracts/drift/replay.js';
import { formatDrift } from '../../contracts/drift/report.js';
import type { Drift } from '../../contracts/drift/rules.js';
import { runProxy } from '../../contracts/proxy/command.js';
import type { Simulator } from '../../src/simulator.js';
import { VIOLATIONS } from '../violations/catalog.js';
import { editJson, is, type Handle } from '../violations/tamper.js';
import { errorCode, PATHS } from '../violations/violation.js';
import { serveOnLoopback, simulatorUnderTest } from '../violations/violated-simulator.js';
import { driveFlow } from './flow.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
/** Every stage of the realistic pipeline outlasts the flow's 15 s polls, on either side. */
const REALISTIC = { speed: 'realistic' } as const;
/** A replay target of another seed: every id it gives differs from the recording's, so the replay must map them. */
const OTHER_SEED = { ...REALISTIC, seed: 'replay-target' } as const;

let dir: string;
let recording: string;
let har: Har;
let flow: Awaited<ReturnType<typeof driveFlow>>;
let recordedViolations: string[];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'drift-'));
  recording = join(dir, 'flow.har');
  const simulator = await serveOnLoopback(simulatorUnderTest(undefined, REALISTIC));
  const proxy = await runProxy({ target: simulator.baseUrl, level: 'strict', record: recording });
  try {
    flow = await driveFlow({ serviceUrl: proxy.url, simulatorUrl: simulator.baseUrl });
  } finally {
    const report = await proxy.stop();
    recordedViolations = report.violations.map((v) => `${v.rule}: ${v.method} ${v.url} ${v.detail}`);
    await simulator.close();
  }
  har = JSON.parse(readFileSync(recording, 'utf8')) as Har;
}, 120_000);

/** Replays the recording against a fresh simulator whose answers `wrap` changes (none: the simulator as it is). */
async function replayAgainst(wrap?: (handle: Handle, sim: Simulator) => Handle) {
  const target = simulatorUnderTest(undefined, OTHER_SEED);
  const server = await serveOnLoopback(wrap ? { ...target, handle: wrap(target.handle, target.simulator) } : target);
  try {
    return await replayRecording({ har, baseUrl: server.baseUrl });
  } finally {
    await server.close();
  }
}

const rulesOf = (drifts: Drift[]) => [...new Set(drifts.map((d) => d.rule))];
const show = (drifts: Drift[]) => drifts.map(formatDrift);

describe('drift: a recording replayed against the simulator', () => {
  it('records the whole flow through the proxy as HAR 1.2 that a published validator accepts, with no secret in it', async () => {
    expect(recordedViolations).toEqual([]); // every answer of the recording held to openapi.yaml, strictly
    await expect(harValidator.har(har)).resolves.toBeTruthy(); // it rejects with the schema's errors
    const calls = har.log.entries.map((e) => `${e.request.method} ${new URL(e.request.url).pathname} ${e.response.status}`);
    expect(calls.length).toBeGreaterThanOrEqual(flow.calls);
    for (const seen of ['GET /api/v1/tokens/balance 200', 'POST /api/v1/targets 201', 'POST /api/v1/builds 202', 'POST /api/v1/builds 200', 'POST /api/v1/builds 402', 'POST /api/v1/targets 403', 'POST /api/v1/builds 429', 'POST /mcp 200']) {
      expect(calls).toContain(seen);
    }
    expect(calls.filter((c) => /^GET \/api\/v1\/deliverables\/[^/]+\/download 200$/.test(c))).toHaveLength(2);
    const text = readFileSync(recording, 'utf8');
    for (const key of [...Object.values(flow.keys), ...flow.secrets]) {
      expect(text).not.toContain(key);
      expect(text).not.toContain(key.slice(-20, -4));
    }
    expect(text).toContain(`Bearer svc_live_…${flow.keys.readWrite!.slice(-4)}`); // the hint, to tell keys apart
  });

  it('finds no drift between the recording and a fresh simulator (on a fresh account, its clock moved as the recording\'s moved)', async () => {
    const target = simulatorUnderTest(undefined, OTHER_SEED);
    const server = await serveOnLoopback(target);
    // The replayed answers pass through the validation proxy too: each is held to the contracts.
    const proxy = await runProxy({ target: server.baseUrl, level: 'strict' });
    try {
      const result = await replayRecording({ har, baseUrl: proxy.url });
      expect(show(result.drifts)).toEqual([]);
      expect(result.replayed).toBe(har.log.entries.length);
      expect(result.pipelineSpeed).toBe('realistic');
      expect(result.mapped).toBeGreaterThan(5); // the target's ids differ (another seed): target, build, deliverable, keys…
    } finally {
      const report = await proxy.stop();
      await server.close();
      expect(report.violations.map((v) => `${v.rule}: ${v.method} ${v.url} ${v.detail}`)).toEqual([]);
    }
  });

  const catalogued = (id: string) => VIOLATIONS.find((v) => v.id === id)!.wrap as (h: Handle, sim: Simulator) => Handle;
  const CHANGES: Array<[string, (h: Handle, sim: Simulator) => Handle, Drift['rule'], string, string | undefined]> = [
    ['a status (createTarget answers 200, not 201)', (h) => (req) => {
      const res = h(req);
      return is(req, 'POST', PATHS.targets) && res.status === 201 ? { ...res, status: 200 } : res;
    }, 'status', 'createTarget', undefined],
    ['an error code (a 402 says INSUFFICIENT_BALANCE)', (h) => editJson(h, (_, res) => errorCode(res) === 'INSUFFICIENT_TOKENS', (json) => ({ ...json, code: 'INSUFFICIENT_BALANCE' })), 'errorCode', 'createBuild', 'code'],
    ["a field's type (the balance as a string)", (h) => editJson(h, (req, res) => is(req, 'GET', PATHS.balance) && res.status === 200, (json) => ({ ...json, balance: String(json.balance) })), 'fieldType', 'getTokenBalance', 'balance'],
    ['a skipped state (critiquing reported as merging)', catalogued('skipped-status'), 'stateSkipped', 'getBuild', 'build.status'],
    ['a missing rate-limit header (no X-RateLimit-Remaining on the balance)', catalogued('missing-rate-limit-header'), 'headerMissing', 'getTokenBalance', 'x-ratelimit-remaining'],
  ];
  it.each(CHANGES)('reports %s by name, and nothing else', async (_, wrap, rule, operationId, field) => {
    const result = await replayAgainst(wrap);
    expect(rulesOf(result.drifts), show(result.drifts).join('\n')).toEqual([rule]);
    for (const d of result.drifts) {
      expect(d.operationId).toBe(operationId);
      if (field) expect(d.field).toBe(field);
      expect(d.explanation.length).toBeGreaterThan(20);
    }
  });
});

describe('drift: the command, its reports and the accept file', () => {
  let server: Awaited<ReturnType<typeof serveOnLoopback>>;
  beforeAll(async () => {
    const target = simulatorUnderTest(undefined, OTHER_SEED);
    const renamed = editJson(target.handle, (_, res) => errorCode(res) === 'INSUFFICIENT_TOKENS', (json) => ({ ...json, code: 'INSUFFICIENT_BALANCE' }));
    server = await serveOnLoopback({ ...target, handle: renamed });
  });
  afterAll(() => server.close());

  it('stops before the next call when asked to (a signal to the command), and says how far it got', async () => {
    const stop = new AbortController();
    let calls = 0;
    const counting: typeof fetch = (input, init) => {
      if (!String(input).includes('/_sim') && ++calls === 3) stop.abort('SIGTERM');
      return fetch(input, init);
    };
    const result = await replayRecording({ har, baseUrl: server.baseUrl, fetch: counting, signal: stop.signal });
    expect(result.interrupted).toBe('SIGTERM');
    expect(result.replayed).toBeGreaterThanOrEqual(2);
    expect(result.replayed).toBeLessThan(har.log.entries.length / 2);
  });

  it('turns a difference an accept file lists into an accepted one, and names the entries that matched nothing', async () => {
    const accept = join(dir, 'accept.yaml');
    writeFileSync(accept, [
      'accept:',
      '  - rule: errorCode',
      '    operationId: createBuild',
      '    recorded: INSUFFICIENT_TOKENS',
      '    replayed: INSUFFICIENT_BALANCE',
      '    reason: the staging service renamed the code; the SDK handles both',
      '  - rule: status',
      '    operationId: getBuild',
      '    reason: a difference this replay does not meet',
      '',
    ].join('\n'));
    const report = await checkDrift({ har: recording, baseUrl: server.baseUrl, accept });
    expect(show(report.drifts)).toEqual([]);
    expect(report.accepted.map((d) => [d.rule, d.accepted])).toEqual([['errorCode', 'the staging service renamed the code; the SDK handles both']]);
    expect(report.staleAccepts.map((a) => a.rule)).toEqual(['status']);
    writeFileSync(accept, 'accept:\n  - rule: errorCode\n');
    await expect(checkDrift({ har: recording, baseUrl: server.baseUrl, accept })).rejects.toThrow(/a reason is required/);
  });

  it('exits 1 on drift and writes the JSON and JUnit reports; 0 when every difference is accepted', async () => {
    const reports = join(dir, 'reports');
    const run = (...args: string[]) =>
      new Promise<{ code: number | null; stdout: string }>((resolve) => {
        const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST')));
        const child = spawn(process.execPath, [join(root, 'node_modules/tsx/dist/cli.mjs'), 'contracts/run.ts', 'drift', '--har', recording, '--base-url', server.baseUrl, '--report-dir', reports, ...args], { cwd: root, env });
        let stdout = '';
        child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
        child.on('close', (code) => resolve({ code, stdout }));
      });
    const drifted = await run();
    expect(drifted.code, drifted.stdout).toBe(1);
    expect(drifted.stdout).toMatch(/✗ errorCode: .*\n.*POST \/api\/v1\/builds \(createBuild\): \[errorCode code\] recorded "INSUFFICIENT_TOKENS", replayed "INSUFFICIENT_BALANCE"/);
    const json = JSON.parse(readFileSync(join(reports, 'contracts-drift.json'), 'utf8'));
    expect(json.drifts.map((d: Drift) => d.rule), drifted.stdout).toEqual(['errorCode']);
    const junit = readFileSync(join(reports, 'contracts-drift-junit.xml'), 'utf8');
    expect(junit).toMatch(/<testsuites name="contract drift" tests="\d+" failures="1"/);
    expect(junit).toContain('INSUFFICIENT_BALANCE');
    const accept = join(dir, 'accept.json');
    writeFileSync(accept, JSON.stringify({ accept: [{ rule: 'errorCode', replayed: 'INSUFFICIENT_BALANCE', reason: 'renamed on staging' }] }));
    const accepted = await run('--accept', accept);
    expect(accepted.code, accepted.stdout).toBe(0);
    expect(accepted.stdout).toContain('ACCEPTED (1)');
  }, 60_000);
});
