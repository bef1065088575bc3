/**
 * A restore sent over the control API is read, checked and built a slice at a time: another
 * client's /healthz is answered within 100 ms while the largest restore accepted (a body just
 * under the 64 MiB cap, sixteen accounts at their quota of a thousand targets) loads, nineteen
 * times in twenty on a loaded machine, never past 250 ms. As for scenarios, each sample is
 * paired with one of an idle server beside it: when that one was slow too, the machine stalled
 * both, and the pair is left out.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_RESTORE_BODY_BYTES } from '../../src/engine/http-body.js';
import { startCli, type CliServer } from '../support/cli-server.js';
import { assertContract } from '../support/contract.js';
import { repeatRun } from '../support/once.js';
import { describeSamples, expectWithinBound, sampleWhile, timedHealthz } from './healthz-beside.js';

const ACCOUNTS = 16;
const TARGETS_PER_ACCOUNT = 1000;
/**
 * This body's peak above the live state: measured 223 to 230 MiB (persistence.md). The 1 GiB
 * persistence.md promises covers every shape of body at the cap; for this one, twice the
 * measure fails, so a restore that starts holding a second copy is caught.
 */
const PEAK_MIB = 512;
const servers: CliServer[] = [];
afterEach(() => servers.splice(0).forEach((s) => s.stop()));

async function call(base: string, method: string, url: string, body?: string) {
  const res = await fetch(`${base}${url}`, { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body });
  const text = await res.text();
  assertContract({ method, url, status: res.status, headers: Object.fromEntries(res.headers), body: text });
  return { status: res.status, json: JSON.parse(text) };
}

function memoryKiB(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
}

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The server's own snapshot, its accounts filled with targets up to their quota, padded to just under the cap. */
async function largestRestore(base: string): Promise<string> {
  for (let a = 0; a < ACCOUNTS; a++) {
    const account = (await call(base, 'POST', '/_sim/accounts', JSON.stringify({ name: `restored-${a}` }))).json;
    const key = account.keys.readWrite;
    const res = await fetch(`${base}/api/v1/targets`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ name: 'Acme', slug: 'acme', description: 'Robots.', brandKit: { voice: 'plain', tone: 'warm' } }),
    });
    expect(res.status).toBe(201);
  }
  const snapshot = (await call(base, 'GET', '/_sim/snapshot')).json;
  const filled = snapshot.accounts.filter((a: Json) => a.targets.entries.length === 1);
  expect(filled).toHaveLength(ACCOUNTS);
  // Each target, its position and its slug's entry, less its description; then descriptions to fill the rest, a little under the cap.
  const sample = filled[0].targets.entries[0][1];
  const perTarget = JSON.stringify([TARGETS_PER_ACCOUNT, { ...sample, id: randomUUID(), slug: 'acme-999', description: '' }]).length + JSON.stringify(['acme-999', randomUUID()]).length + 2;
  const room = 0.98 * MAX_RESTORE_BODY_BYTES - JSON.stringify(snapshot).length - ACCOUNTS * TARGETS_PER_ACCOUNT * perTarget;
  const description = 'Industrial robots for small workshops. '.repeat(Math.floor(room / (ACCOUNTS * TARGETS_PER_ACCOUNT) / 39));
  for (const account of filled) {
    const [, first] = account.targets.entries[0];
    account.targets.entries = [];
    account.slugs = [];
    for (let t = 0; t < TARGETS_PER_ACCOUNT; t++) {
      const target = { ...first, id: randomUUID(), slug: `acme-${t}`, description };
      account.targets.entries.push([t + 1, target]);
      account.slugs.push([target.slug, target.id]);
    }
    account.targets.nextSeq = TARGETS_PER_ACCOUNT + 1;
  }
  return JSON.stringify(snapshot);
}

describe.skipIf(repeatRun)('the largest restore accepted over the control API', () => {
  it('leaves another client answered within 100 ms while it loads', { timeout: 180_000 }, async () => {
    const [loading, idle] = await Promise.all([startCli(), startCli()]);
    servers.push(loading, idle);
    const body = await largestRestore(loading.baseUrl);
    const bytes = Buffer.byteLength(body);
    expect(bytes).toBeLessThanOrEqual(MAX_RESTORE_BODY_BYTES);
    expect(bytes).toBeGreaterThan(0.9 * MAX_RESTORE_BODY_BYTES);
    for (const s of [loading, idle]) await timedHealthz(s.baseUrl); // connections set up
    const rssBefore = memoryKiB(loading.serverPid(), 'VmRSS');
    let done = false;
    const restore = call(loading.baseUrl, 'POST', '/_sim/restore', body).finally(() => (done = true));
    const sampled = await sampleWhile(loading.baseUrl, idle.baseUrl, () => done);
    const restored = await restore;
    expect(restored.status, JSON.stringify(restored.json).slice(0, 500)).toBe(200);
    expect(restored.json.accounts).toBeGreaterThanOrEqual(ACCOUNTS);
    // The most the server held at once, above what it held before: the documented peak of a restore.
    const peakMiB = (memoryKiB(loading.serverPid(), 'VmHWM') - rssBefore) / 1024;
    const summary = `${(bytes / 2 ** 20).toFixed(1)} MiB restored, peak ${peakMiB.toFixed(0)} MiB above the server's memory before; ${describeSamples(sampled)}`;
    console.log(`/healthz during a restore: ${summary}`);
    expectWithinBound(sampled, summary);
    expect(peakMiB, summary).toBeLessThan(PEAK_MIB);
  });
});
