import { appendFileSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readStateFile, StateFileError } from '../../src/persist/state-file.js';
import { DurableState } from '../../src/persist/durable-state.js';
import { listSegments, recordLine, segmentPath } from '../../src/persist/log-file.js';
import { recoverState } from '../../src/persist/recover.js';
import { createSimulator, type Simulator } from '../../src/simulator.js';
import { assertContract } from '../support/contract.js';

/**
 * Recovery from the log, in-process: a record torn by a crash is dropped (and cut off), only
 * when it is the last; a damaged one with records after it refuses the start; and ids given
 * before the crash, logged or not, are never given again.
 */

function kept(path: string): { simulator: Simulator; state: DurableState } {
  const simulator = createSimulator({ onFault: () => {} });
  const saved = readStateFile(path);
  const recovered = saved ? recoverState(simulator, path, saved.snapshot) : undefined;
  const state = new DurableState(simulator, { path, durability: 'every-write', intervalMs: 60_000, onError: (line) => { throw new Error(line); } }, recovered?.nextSegment);
  return { simulator, state };
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The segment written last (the next one is made ahead, empty). */
function writtenSegment(path: string): string {
  return segmentPath(path, listSegments(path).filter((n) => statSync(segmentPath(path, n)).size > 0).at(-1)!);
}

async function call(simulator: Simulator, method: string, url: string, body?: unknown) {
  const response = simulator.handle({
    method,
    url,
    headers: { authorization: `Bearer ${simulator.keys.readWrite}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: new TextEncoder().encode(JSON.stringify(body)) } : {}),
  });
  await response.durable;
  const text = typeof response.body === 'string' ? response.body : new TextDecoder().decode(response.body);
  assertContract({ method, url, status: response.status, headers: response.headers, body: text });
  return { status: response.status, body: text ? JSON.parse(text) : undefined, correlationId: response.headers['x-correlation-id'] };
}

describe('recovery from the state log', () => {
  it('drops a torn last record, and only that one, cutting it off the file', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'sim-log-')), 'state.json');
    const first = kept(path);
    const a = await call(first.simulator, 'POST', '/api/v1/targets', { name: 'A', slug: 'a' });
    const b = await call(first.simulator, 'POST', '/api/v1/targets', { name: 'B', slug: 'b' });
    expect([a.status, b.status]).toEqual([201, 201]);
    // The process dies while writing its next record: half a line.
    const segment = writtenSegment(path);
    const whole = statSync(segment).size;
    const line = readFileSync(segment, 'utf8').trimEnd().split('\n').at(-1)!;
    appendFileSync(segment, line.slice(0, line.length >> 1));

    const second = kept(path);
    expect(statSync(segment).size).toBe(whole);
    const names = (await call(second.simulator, 'GET', '/api/v1/targets')).body.data.map((t: { name: string }) => t.name);
    expect(names).toEqual(['B', 'A']);
    await second.state.stop();
  });

  it('refuses a log damaged before its last record, naming it', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'sim-log-')), 'state.json');
    const first = kept(path);
    await call(first.simulator, 'POST', '/api/v1/targets', { name: 'A', slug: 'a' });
    const segment = writtenSegment(path);
    const text = readFileSync(segment, 'utf8');
    await call(first.simulator, 'POST', '/api/v1/targets', { name: 'B', slug: 'b' });
    // A byte changed inside the first record, with a whole record after it: damage, not a crash.
    const bytes = readFileSync(segment);
    bytes[text.indexOf('"A"') + 1] = 'Z'.charCodeAt(0);
    writeFileSync(segment, bytes);
    expect(() => kept(path)).toThrow(StateFileError);
    expect(() => kept(path)).toThrow(/damaged at byte \d+ \(not its last record\)/);
  });

  it('tells a damaged last record from a torn one: a whole line failing its check refuses the start, unless its loss is accepted', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'sim-log-')), 'state.json');
    const first = kept(path);
    await call(first.simulator, 'POST', '/api/v1/targets', { name: 'A', slug: 'a' });
    const segment = writtenSegment(path);
    const at = statSync(segment).size;
    await call(first.simulator, 'POST', '/api/v1/targets', { name: 'B', slug: 'b' });
    // One byte changed in the last record, its newline kept: written whole, then changed.
    const bytes = readFileSync(segment);
    bytes[bytes.lastIndexOf('"B"') + 1] = 'C'.charCodeAt(0);
    writeFileSync(segment, bytes);
    expect(() => kept(path)).toThrow(new RegExp(`${escaped(segment)} is damaged at byte ${at}: its last record is whole but fails its check`));
    expect(statSync(segment).size).toBe(bytes.length);
    // Accepted: the record is dropped, and the start says so.
    const notices: string[] = [];
    const simulator = createSimulator({ onFault: () => {} });
    recoverState(simulator, path, readStateFile(path)!.snapshot, { acceptDamagedTail: true, notice: (line) => notices.push(line) });
    expect(notices.join('')).toContain(`dropped the damaged last record of ${segment} at byte ${at}`);
    expect(statSync(segment).size).toBe(at);
    const state = new DurableState(simulator, { path, durability: 'every-write', intervalMs: 60_000, onError: (line) => { throw new Error(line); } }, listSegments(path).at(-1)! + 1);
    expect((await call(simulator, 'GET', '/api/v1/targets')).body.data.map((t: { name: string }) => t.name)).toEqual(['A']);
    await state.stop();
  });

  it('reads the restore mark of earlier versions as it says: nothing after it is dropped silently', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'sim-log-')), 'state.json');
    const first = kept(path);
    await call(first.simulator, 'POST', '/api/v1/targets', { name: 'Before', slug: 'before' });
    // The mark such a restore left before its checkpoint, and nothing after it: the restore was never answered.
    const segment = writtenSegment(path);
    const marked = statSync(segment).size;
    appendFileSync(segment, recordLine(['["R"]']));
    const second = kept(path);
    expect((await call(second.simulator, 'GET', '/api/v1/targets')).body.data.map((t: { name: string }) => t.name)).toEqual(['Before']);
    expect(statSync(segment).size).toBe(marked);
    await second.state.stop();
    // A record after the mark was answered: the start refuses, naming the file and the mark's offset.
    const path2 = join(mkdtempSync(join(tmpdir(), 'sim-log-')), 'state.json');
    const third = kept(path2);
    await call(third.simulator, 'POST', '/api/v1/targets', { name: 'Before', slug: 'before' });
    const segment2 = writtenSegment(path2);
    const at = statSync(segment2).size;
    appendFileSync(segment2, recordLine(['["R"]']));
    await call(third.simulator, 'POST', '/api/v1/targets', { name: 'Answered', slug: 'answered' });
    expect(() => kept(path2)).toThrow(new RegExp(`${escaped(segment2)} has records after an unfinished restore at byte ${at}`));
  });

  it('gives no id twice after a crash: ids handed out but never logged are skipped', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'sim-log-')), 'state.json');
    const first = kept(path);
    const seen = new Set<string>();
    const created = await call(first.simulator, 'POST', '/api/v1/targets', { name: 'A', slug: 'a' });
    seen.add(created.body.id);
    // Reads log nothing, yet each answer carries a fresh correlation id.
    for (let i = 0; i < 100; i++) seen.add((await call(first.simulator, 'GET', '/api/v1/targets')).correlationId!);
    // A second crash before any write: the reserve is not taken from the same place again.
    const between = kept(path);
    for (let i = 0; i < 100; i++) seen.add((await call(between.simulator, 'GET', '/api/v1/targets')).correlationId!);
    const second = kept(path);
    for (let i = 0; i < 50; i++) {
      const next = await call(second.simulator, 'POST', '/api/v1/targets', { name: `N${i}`, slug: `n-${i}` });
      expect(seen.has(next.body.id)).toBe(false);
      expect(seen.has(next.correlationId!)).toBe(false);
    }
    await second.state.stop();
  });
});
