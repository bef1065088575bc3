import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { advanced, CORRELATION_RESERVED_DRAWS } from '../../src/persist/replay.js';
import { taskSession } from '../mcp/task-clients.js';
import { call, killAll, serveWithState, sigkill, type Running } from './durable-support.js';

/**
 * Every kind of write the simulator answers, then SIGKILL: the simulation after the restart is
 * the one before, record for record (every collection, account fields, OAuth clients, grants
 * and token digests, idempotency records, clocks), and every id stream stands past where it was.
 */
afterEach(killAll);

async function snapshot(run: Running): Promise<any> {
  const res = await call(run, 'GET', '/_sim/snapshot');
  expect(res.status).toBe(200);
  return res.body;
}

/** Derived indexes rebuilt on restart may list their entries in another order: compared as sets. */
function comparable(s: any): any {
  const copy = structuredClone(s);
  delete copy.savedAt;
  for (const a of copy.accounts) for (const name of ['deliverables', 'slugs', 'audioByDeliverableVoice']) a[name] = [...a[name]].sort((x: any, y: any) => (JSON.stringify(x) < JSON.stringify(y) ? -1 : 1));
  return copy;
}

function ok(res: { status: number; body: any }, status: number): any {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body;
}

describe('the write-ahead log', () => {
  it('keeps every kind of write through a SIGKILL: the state after the restart is the state before', { timeout: 180_000 }, async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'sim-wal-')), 'state.json');
    const run = await serveWithState(file, ['--speed', 'instant']);
    // The simulator's clock frozen, so "before" and "after" read the same instants.
    ok(await call(run, 'POST', '/_sim/clock/freeze', {}), 200);
    ok(await call(run, 'POST', '/_sim/clock/advance', { seconds: 30 }), 200);
    const account = ok(await call(run, 'POST', '/_sim/accounts', { name: 'Kept', balance: 500 }), 201);
    const own = account.keys.readWrite;
    expect(typeof own).toBe('string');
    ok(await call(run, 'POST', `/_sim/accounts/${account.accountId}/clock`, { own: true }), 200);
    ok(await call(run, 'POST', `/_sim/accounts/${account.accountId}/clock/freeze`, {}), 200);
    ok(await call(run, 'POST', `/_sim/accounts/${account.accountId}/clock/advance`, { seconds: 5 }), 200);

    const target = ok(await call(run, 'POST', '/api/v1/targets', { name: 'Brand', slug: 'brand', description: 'Coffee', brandKit: { voice: 'v', tone: 't' } }), 201);
    ok(await call(run, 'PATCH', `/api/v1/targets/${target.id}`, { name: 'Brand renamed', slug: 'brand-two' }), 200);
    const gone = ok(await call(run, 'POST', '/api/v1/targets', { name: 'Gone', slug: 'gone' }), 201);
    ok(await call(run, 'DELETE', `/api/v1/targets/${gone.id}`), 204);
    const item = ok(await call(run, 'POST', `/api/v1/targets/${target.id}/library`, { type: 'cta', name: 'Buy', content: 'Buy now', url: 'https://example.com/buy' }), 201);
    ok(await call(run, 'PATCH', `/api/v1/targets/${target.id}/library/${item.id}`, { content: 'Buy today' }), 200);
    const build = ok(await call(run, 'POST', '/api/v1/builds', { targetId: target.id, buildType: 'single', kind: 'blog', objective: 'Explain espresso at home' }, { 'Idempotency-Key': 'build-1' }), 202);
    const failing = ok(await call(run, 'POST', '/api/v1/builds', { targetId: target.id, buildType: 'single', kind: 'blog', objective: 'Explain espresso [fail:drafting]' }), 202);
    ok(await call(run, 'POST', '/_sim/clock/advance', { seconds: 3600 }), 200);
    const done = ok(await call(run, 'GET', `/api/v1/builds/${build.buildId}`), 200);
    ok(await call(run, 'GET', `/api/v1/builds/${failing.buildId}`), 200); // books the refund
    const deliverableId = done.deliverables?.[0]?.id ?? done.deliverableIds?.[0];
    expect(typeof deliverableId).toBe('string');
    const share = ok(await call(run, 'POST', `/api/v1/deliverables/${deliverableId}/shares`, {}), 201);
    ok(await call(run, 'POST', `/api/v1/deliverables/${deliverableId}/shares`, {}), 201);
    ok(await call(run, 'DELETE', `/api/v1/shares/${share.id}`), 204);
    ok(await call(run, 'POST', `/api/v1/deliverables/${deliverableId}/audio`, { voice: 'aria' }), 201);
    ok(await call(run, 'POST', '/api/v1/images', { prompt: 'A lighthouse' }), 201);
    const chat = ok(await call(run, 'POST', '/api/v1/chats', { targetId: target.id }), 201);
    ok(await call(run, 'POST', `/api/v1/chats/${chat.id}/messages`, { content: 'Give me a tagline' }), 201);
    ok(await call(run, 'POST', '/api/v1/tokens/purchases', { bundleId: 'starter' }, { 'Idempotency-Key': 'buy-1' }), 201);
    const revoked = ok(await call(run, 'POST', '/api/v1/keys', { name: 'to revoke', scopes: ['svc:read'] }), 201);
    ok(await call(run, 'DELETE', `/api/v1/keys/${revoked.id}`), 200);
    const rotated = ok(await call(run, 'POST', '/api/v1/keys', { name: 'to rotate', scopes: ['svc:read', 'svc:write'] }), 201);
    const fresh = ok(await call(run, 'POST', `/api/v1/keys/${rotated.id}/rotate`), 201);
    const minted = ok(await call(run, 'POST', '/_sim/oauth/tokens', { apiKey: run.key }), 201);
    const refreshed = await fetch(`${run.base}/oauth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: minted.refresh_token, client_id: 'content-sim-demo' }),
    });
    expect(refreshed.status).toBe(200);
    const second = ok(await call(run, 'POST', '/_sim/oauth/tokens', { apiKey: fresh.value }), 201);
    const grants = ok(await call(run, 'GET', '/api/v1/oauth/grants', undefined, {}, fresh.value), 200);
    ok(await call(run, 'DELETE', `/api/v1/oauth/grants/${grants.data[0].id}`, undefined, {}, fresh.value), 200);
    expect(second.access_token).toBeTruthy();
    // A tool call over MCP (the official client): its answer, too, waits for the log.
    const mcp = new Client({ name: 'wal-test', version: '1' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${run.base}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${run.key}` } } }));
    const viaMcp = (await mcp.callTool({ name: 'createTarget', arguments: { name: 'By tool', slug: 'by-tool', description: 'd', brandKit: { voice: 'v', tone: 't' } } })) as { isError?: boolean; structuredContent?: { id: string } };
    expect(viaMcp.isError).toBeFalsy();
    await mcp.close();
    // The other account: reset empties it, then a purchase.
    ok(await call(run, 'POST', '/api/v1/targets', { name: 'Theirs', slug: 'theirs' }, {}, own), 201);
    ok(await call(run, 'POST', `/_sim/accounts/${account.accountId}/reset`, {}), 200);
    ok(await call(run, 'POST', '/api/v1/tokens/purchases', { bundleId: 'starter' }, {}, own), 201);

    // Last of all, a build made as an MCP task (the official requester library): the task record,
    // made once the build is, is on disk before the answer as the build is.
    const assistant = new Client({ name: 'wal-test', version: '1' });
    await assistant.connect(new StreamableHTTPClientTransport(new URL(`${run.base}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${run.key}` } } }));
    const tasks = taskSession(assistant, '2025-11-25', `${run.base}/mcp`, run.key, 'wal-test');
    const execution = await tasks.callTool('createBuild', { targetId: target.id, buildType: 'single', kind: 'blog', objective: 'Explain cold brew' }, { task: { preference: 'require' } });
    if (execution.kind !== 'task') throw new Error('no task was made');
    const taskId = execution.handle.taskId;

    const before = await snapshot(run);
    await sigkill(run);
    expect(readdirSync(join(file, '..')).some((name) => name.startsWith('state.json.wal-'))).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const again = await serveWithState(file);
    const after = await snapshot(again);
    // Every id stream moved past where it stood (ids it may have given unlogged are never given again); the rest is the same.
    const expected = comparable(before);
    for (const name of ['ids', 'keyValues']) expected.streams[name] = advanced(before.streams[name]);
    expected.streams.correlationIds = advanced(before.streams.correlationIds, CORRELATION_RESERVED_DRAWS);
    for (const a of expected.accounts) a.idStream = advanced(a.idStream);
    const actual = comparable(after);
    expected.streams.correlationIds = actual.streams.correlationIds; // the snapshot call itself drew one
    expect(actual).toEqual(expected);
    // What the answers said still holds: the revoked and rotated keys stay refused, the new one works.
    expect((await call(again, 'GET', '/api/v1/tokens/balance', undefined, {}, revoked.value)).status).toBe(401);
    expect((await call(again, 'GET', '/api/v1/tokens/balance', undefined, {}, rotated.value)).status).toBe(401);
    expect((await call(again, 'GET', '/api/v1/tokens/balance', undefined, {}, fresh.value)).status).toBe(200);
    expect((await call(again, 'GET', `/api/v1/targets/${viaMcp.structuredContent!.id}`)).body.name).toBe('By tool');
    // The task answers tasks/get after the restart, to a new session of the same account.
    expect(after.accounts.flatMap((a: any) => a.mcpTasks.entries.map(([, t]: any) => t.id))).toEqual([taskId]);
    const later = new Client({ name: 'wal-test', version: '1' });
    await later.connect(new StreamableHTTPClientTransport(new URL(`${again.base}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${run.key}` } } }));
    expect((await taskSession(later, '2025-11-25', `${again.base}/mcp`, run.key, 'wal-test-again').task(taskId).snapshot()).taskId).toBe(taskId);
    await later.close();
  });
});
