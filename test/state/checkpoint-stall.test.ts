import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bigSnapshot, call, killAll, serveWithState, sigkill } from './durable-support.js';
import { assertContract } from '../support/contract.js';
import { repeatRun } from '../support/once.js';

/**
 * A state of over 100 MiB: read from its state file at start (above what a restore over HTTP
 * takes), then, after a SIGKILL, recovered and folded into a new checkpoint while /healthz is
 * asked again and again: the checkpoint is written in slices, so no answer waits behind it.
 * Each sample is paired with one of an idle simulator beside it: when that one was slow too,
 * the machine stalled both (a shared, loaded box), and the pair is left out of the bound.
 */
afterEach(killAll);

const STATE_BYTES = 100 * 1024 * 1024;
const HEALTHZ_BOUND_MS = 50;
/** A slow answer the idle reference server gave too, in the same instant, is the machine's, not the checkpoint's. */
const MACHINE_STALL_MS = 25;

async function timedHealthz(base: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${base}/healthz`);
  const body = await res.text();
  const ms = performance.now() - started;
  expect(res.status).toBe(200);
  assertContract({ method: 'GET', url: '/healthz', status: res.status, headers: Object.fromEntries(res.headers), body });
  return ms;
}

/**
 * /healthz of `base` and of the idle `reference`, asked in step until the checkpoint `base` is
 * writing of `file` is in place (its temporary gone, older log segments removed).
 */
async function sampleCheckpoint(file: string, base: string, reference: string) {
  const dir = dirname(file);
  // The reference server's files share the directory: only this state file's are counted.
  const own = () => readdirSync(dir).filter((name) => name.startsWith(`${basename(file)}.`));
  const checkpointing = () => own().some((name) => name.endsWith('.tmp'));
  const segments = () => own().filter((name) => name.includes('.wal-')).length;
  const samples: number[] = [];
  const machineStalls: Array<[number, number]> = [];
  let seenWriting = false;
  const deadline = Date.now() + 60_000;
  // The first exchange sets up the connection: not a measure of the event loop.
  await (await fetch(`${base}/healthz`)).arrayBuffer();
  while (Date.now() < deadline) {
    const writing = checkpointing();
    seenWriting ||= writing;
    // Done: the segment written now and the next, made ahead, are all that is left.
    if (!writing && segments() <= 2) break;
    const [ms, idle] = await Promise.all([timedHealthz(base), timedHealthz(reference)]);
    if (writing && idle > MACHINE_STALL_MS) machineStalls.push([ms, idle]);
    else if (writing) samples.push(ms);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return { seenWriting, samples, machineStalls };
}

describe.skipIf(repeatRun)('checkpoints of a large state', () => {
  it('starts from a state of over 100 MiB, and answers /healthz within 50 ms while the checkpoint is written', { timeout: 600_000 }, async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'sim-big-')), 'state.json');
    // The large state is made from a small one's snapshot and put in place as the state file
    // (over HTTP a restore is capped at 64 MiB; a larger state comes back from its file at start).
    const small = await serveWithState(join(dirname(file), 'small.json'));
    const target = await call(small, 'POST', '/api/v1/targets', { name: 'Model', slug: 'model', description: 'x', brandKit: { voice: 'v', tone: 't' } });
    expect(target.status).toBe(201);
    const body = bigSnapshot((await call(small, 'GET', '/_sim/snapshot')).body, STATE_BYTES * 1.02);
    await sigkill(small);
    expect(Buffer.byteLength(body)).toBeGreaterThan(STATE_BYTES);
    writeFileSync(file, body, { mode: 0o600, flag: 'wx' });
    const first = await serveWithState(file);
    // A write after the start, so the start below has a log to replay and then fold in.
    expect((await call(first, 'PATCH', `/api/v1/targets/${target.body.id}`, { name: 'Model two' })).status).toBe(200);
    await sigkill(first);

    // An idle simulator beside it, asked in step: what a loaded machine alone does to an answer.
    const reference = await serveWithState(join(dirname(file), 'reference.json'));
    await timedHealthz(reference.base);
    const samples: number[] = [];
    const machineStalls: Array<[number, number]> = [];
    let seenWriting = false;
    let second = await serveWithState(file);
    // A fast machine can finish the checkpoint before the first sample: then the process is killed
    // after one more write and started again, which replays that write and checkpoints anew.
    for (let start = 1; ; start++) {
      const sampled = await sampleCheckpoint(file, second.base, reference.base);
      samples.push(...sampled.samples);
      machineStalls.push(...sampled.machineStalls);
      seenWriting ||= sampled.seenWriting;
      if (samples.length >= 30 || start === 4) break;
      expect((await call(second, 'PATCH', `/api/v1/targets/${target.body.id}`, { name: 'Model two' })).status).toBe(200);
      await sigkill(second);
      second = await serveWithState(file);
    }
    expect(seenWriting, 'a checkpoint was written while sampling').toBe(true);
    expect(samples.length).toBeGreaterThanOrEqual(30);
    samples.sort((a, b) => a - b);
    const summary = `${samples.length} samples; median ${samples[samples.length >> 1]!.toFixed(1)} ms, max ${samples[samples.length - 1]!.toFixed(1)} ms; ${machineStalls.length} left out, when the idle server was slow too`;
    console.log(`/healthz during a checkpoint of ${(STATE_BYTES / 2 ** 20).toFixed(0)} MiB: ${summary}`);
    expect(samples[samples.length - 1], summary).toBeLessThan(HEALTHZ_BOUND_MS);
    // And the state is whole: the write after the restore is there.
    expect((await call(second, 'GET', `/api/v1/targets/${target.body.id}`)).body.name).toBe('Model two');
  });
});
