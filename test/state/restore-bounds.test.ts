/**
 * What bounds a restore over the control API: a body cap (413 naming it), a cap on each string
 * and on nesting (400 naming the field, found while reading, before the body is read whole),
 * one restore at a time (409 at once), and a faulty body changing nothing.
 */
import { describe, expect, it } from 'vitest';
import { createSimulator, type Simulator } from '../../src/simulator.js';
import { MAX_RESTORE_BODY_BYTES } from '../../src/engine/http-body.js';
import { RESTORE_JSON_LIMITS } from '../../src/state/restore-in-slices.js';
import { assertContract } from '../support/contract.js';

const encode = (text: string) => new TextEncoder().encode(text);

/** A control call in-process, the deferred answer awaited as an adapter awaits it, checked against the contract. */
async function control(simulator: Simulator, url: string, body: Uint8Array) {
  const first = simulator.handle({ method: 'POST', url, headers: { 'content-type': 'application/json' }, body }, { controlTrusted: true });
  const response = first.later ? await first.later : first;
  assertContract({ method: 'POST', url, status: response.status, headers: response.headers, body: response.body as string });
  return { status: response.status, json: JSON.parse(response.body as string), deferred: first.later !== undefined };
}

function createAccount(simulator: Simulator, name: string): void {
  const made = simulator.handle({ method: 'POST', url: '/_sim/accounts', headers: { 'content-type': 'application/json' }, body: encode(JSON.stringify({ name })) }, { controlTrusted: true });
  expect(made.status).toBe(201);
}

function withAccounts(count: number) {
  const simulator = createSimulator({ onFault: () => {} });
  for (let i = 0; i < count; i++) createAccount(simulator, `a${i}`);
  return simulator;
}

describe('a restore over the control API', () => {
  it('refuses a body over the cap with 413 naming it, before reading any of it', async () => {
    const simulator = withAccounts(1);
    const before = JSON.stringify(simulator.snapshot().accounts);
    const refused = await control(simulator, '/_sim/restore', new Uint8Array(MAX_RESTORE_BODY_BYTES + 1).fill(0x20));
    expect([refused.status, refused.json.code, refused.json.details]).toEqual([413, 'PAYLOAD_TOO_LARGE', { maxBytes: 64 * 1024 * 1024 }]);
    expect(refused.deferred).toBe(false);
    expect(JSON.stringify(simulator.snapshot().accounts)).toBe(before);
  });

  it('refuses a string over the cap with 400 naming the field and the cap, and changes nothing', async () => {
    const simulator = withAccounts(2);
    const snapshot = simulator.snapshot();
    const before = JSON.stringify(snapshot.accounts);
    // A junk field of 40 MB, well within the body cap: refused where it starts, not read to its end.
    const text = JSON.stringify({ ...snapshot, accounts: [snapshot.accounts[0], { ...snapshot.accounts[1], name: 'x'.repeat(40_000_000) }] });
    const refused = await control(simulator, '/_sim/restore', encode(text));
    expect(refused.status).toBe(400);
    expect(refused.json.details.fields).toEqual([{ path: 'body.accounts[1].name', message: `is a string longer than ${RESTORE_JSON_LIMITS.maxStringLength} characters` }]);
    expect(refused.json.error).toBe(`body.accounts[1].name: is a string longer than 1000000 characters`);
    expect(JSON.stringify(simulator.snapshot().accounts)).toBe(before);
  });

  it('refuses nesting deeper than the cap, and text that is not JSON, naming where', async () => {
    const simulator = withAccounts(1);
    const deep = await control(simulator, '/_sim/restore', encode(`{"accounts":${'['.repeat(40)}${']'.repeat(40)}}`));
    expect(deep.status).toBe(400);
    expect(deep.json.details.fields[0].message).toBe(`nests deeper than ${RESTORE_JSON_LIMITS.maxDepth} levels`);
    const broken = await control(simulator, '/_sim/restore', encode('{"format":"content-sim-state","accounts":[1,]}'));
    expect(broken.status).toBe(400);
    expect(broken.json.details.fields).toEqual([{ path: 'body.accounts[1]', message: 'is not valid JSON (expected a value at byte 44)' }]);
    expect(broken.json.error).toBe('The request body is not valid JSON (expected a value at byte 44).');
    // A number of a million digits is read (as JSON.parse reads it), and the snapshot then checked: a 400, never a 500.
    const long = await control(simulator, '/_sim/restore', encode(`{"format":"content-sim-state","version":${'1'.repeat(1_000_000)}}`));
    expect([long.status, long.json.details.fields[0].path]).toEqual([400, 'body.version']);
  });

  it('takes one restore at a time: another sent meanwhile is a 409 at once, and the first goes on', async () => {
    const simulator = withAccounts(3);
    const saved = simulator.snapshot();
    createAccount(simulator, 'made after the save');
    const body = encode(JSON.stringify(saved));
    const first = control(simulator, '/_sim/restore', body);
    const second = await control(simulator, '/_sim/restore', body);
    expect([second.status, second.json.code, second.deferred]).toEqual([409, 'CONFLICT', false]);
    const done = await first;
    expect(done.status).toBe(200);
    expect(simulator.snapshot().accounts.map((a) => a.name)).not.toContain('made after the save');
    // Once answered, the next one is taken.
    expect((await control(simulator, '/_sim/restore', body)).status).toBe(200);
  });

  it('checks the snapshot against its schema record by record, naming the path of a fault deep in a list', async () => {
    const simulator = withAccounts(2);
    const snapshot = simulator.snapshot() as unknown as { accounts: Array<{ keys: { entries: Array<[number, { scopes: unknown }]> } }> };
    snapshot.accounts[2]!.keys.entries[1]![1].scopes = ['svc:admin'];
    const refused = await control(simulator, '/_sim/restore', encode(JSON.stringify(snapshot)));
    expect(refused.status).toBe(400);
    expect(refused.json.details.fields[0].path).toBe('body.accounts[2].keys.entries[1][1].scopes[0]');
  });
});
