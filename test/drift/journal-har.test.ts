import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import harValidator from 'har-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkDrift } from '../../contracts/drift/command.js';
import type { Har } from '../../contracts/shared/har.js';
import { replayRecording } from '../../contracts/drift/replay.js';
import { formatDrift } from '../../contracts/drift/report.js';
import { assertContract } from '../support/contract.js';
import { serveOnLoopback, simulatorUnderTest } from '../violations/violated-simulator.js';
import { driveFlow } from './flow.js';

/** A recording of the simulator itself: its journal, exported as HAR after a client's session. */
let simulator: Awaited<ReturnType<typeof serveOnLoopback>>;
let flow: Awaited<ReturnType<typeof driveFlow>>;
let text: string;
let har: Har;

async function exportJournal(query: string): Promise<{ status: number; text: string; headers: Record<string, string> }> {
  const url = `/_sim/journal?${query}`;
  const response = await fetch(`${simulator.baseUrl}${url}`);
  const body = await response.text();
  const headers = Object.fromEntries(response.headers);
  assertContract({ method: 'GET', url, status: response.status, headers, body }); // simulator-control.yaml
  return { status: response.status, text: body, headers };
}

beforeAll(async () => {
  simulator = await serveOnLoopback(simulatorUnderTest(undefined, { speed: 'realistic' }));
  flow = await driveFlow({ serviceUrl: simulator.baseUrl, simulatorUrl: simulator.baseUrl, exhaust: false });
  const exported = await exportJournal(`accountId=${flow.accountId}&format=har&limit=1000`);
  expect(exported.status).toBe(200);
  expect(exported.headers['content-type']).toMatch(/^application\/har\+json/);
  text = exported.text;
  har = JSON.parse(text) as Har;
}, 120_000);
afterAll(() => simulator.close());

describe("the simulator's journal as HAR", () => {
  it('is HAR 1.2 a published validator accepts: one account\'s calls, oldest first, at the virtual time, with the documented headers', async () => {
    await expect(harValidator.har(har)).resolves.toBeTruthy(); // it rejects with the schema's errors
    const entries = har.log.entries;
    expect(har.log.creator.name).toBe('content-sim journal');
    expect(entries.length).toBeGreaterThanOrEqual(flow.calls - 4); // the MCP handshake is no call of the engine
    const times = entries.map((e) => Date.parse(e.startedDateTime));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(times.at(-1)! - times[0]!).toBeGreaterThan(150_000); // the account's clock, moved 15 s a poll
    const create = entries.find((e) => e.request.method === 'POST' && e.request.url.endsWith('/api/v1/builds'))!;
    expect(create.request.headers).toContainEqual({ name: 'idempotency-key', value: 'flow-2026-11-26-1' });
    expect(create.response.headers.map((h) => h.name)).toEqual(expect.arrayContaining(['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'x-correlation-id', 'content-type']));
    expect(create.request.headers).toContainEqual({ name: 'authorization', value: `Bearer svc_live_…${flow.keys.readWrite!.slice(-4)}` });
    const deliverable = entries.find((e) => /\/api\/v1\/deliverables\/[^/]+$/.test(e.request.url))!;
    expect(deliverable.response.content.comment).toBe('cut at 4096 characters by the journal');
    const other = await exportJournal('accountId=00000000-0000-4000-8000-000000000000&format=har');
    expect(JSON.parse(other.text).log.entries).toEqual([]);
  });

  it('holds no secret: keys, the key made during the session, the share token', () => {
    for (const secret of [...Object.values(flow.keys), ...flow.secrets]) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(secret.slice(-20, -4));
    }
  });

  it('replays on a fresh simulator with no drift', async () => {
    const fresh = await serveOnLoopback(simulatorUnderTest(undefined, { speed: 'realistic', seed: 'journal-replay' }));
    try {
      const result = await replayRecording({ har, baseUrl: fresh.baseUrl });
      expect(result.drifts.map(formatDrift)).toEqual([]);
      expect(result.replayed).toBeGreaterThan(30);
    } finally {
      await fresh.close();
    }
  });

  it('replays against another implementation, given its credentials, with no clock to move: builds are followed by polling', async () => {
    // "Another implementation": a server the replay only knows by its URL and keys (here a fast simulator's account made by hand).
    const other = await serveOnLoopback(simulatorUnderTest(undefined, { speed: 'fast', seed: 'another-backend' }));
    const dir = mkdtempSync(join(tmpdir(), 'drift-journal-'));
    try {
      const made = await (await fetch(`${other.baseUrl}/_sim/accounts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ balance: 3 }) })).json();
      const file = join(dir, 'simulator.har');
      writeFileSync(file, text);
      // Its builds leave `pending` within milliseconds of real time: a reviewed, accepted difference when a poll comes too late to see it.
      const accept = join(dir, 'accept.yaml');
      writeFileSync(accept, 'accept:\n  - rule: stateSkipped\n    recorded: pending\n    reason: this backend\'s builds leave pending within milliseconds\n');
      const report = await checkDrift({ har: file, baseUrl: other.baseUrl, keys: made.keys, accept, pollIntervalMs: 250 });
      expect(report.drifts.map(formatDrift)).toEqual([]);
      expect(report.pipelineSpeed).toBeUndefined(); // no control API was used
      expect(report.followUps).toBeGreaterThan(0);
    } finally {
      await other.close();
    }
  }, 120_000);
});
