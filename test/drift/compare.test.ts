import { describe, expect, it } from 'vitest';
import { compareAnswers, parseBody, type Answer } from '../../contracts/drift/compare.js';
import { credentialRoles } from '../../contracts/drift/credentials.js';
import type { HarEntry } from '../../contracts/shared/har.js';
import { IdMap } from '../../contracts/drift/id-map.js';
import { ResponseSchemas } from '../../contracts/drift/schema-walk.js';
import { StateTracker } from '../../contracts/drift/states.js';
import { matchOperation } from '../../contracts/shared/exercise-log.js';
import { CONTRACT_FILES, readContractDocument, readOperations } from '../../contracts/shared/openapi-model.js';

const operations = readOperations();
const schemas = new ResponseSchemas(readContractDocument(CONTRACT_FILES.service));
const headers = new Set(['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'x-correlation-id']);
const answer = (status: number, json: unknown, extra: Record<string, string> = {}): Answer => ({ status, headers: { 'content-type': 'application/json', 'x-ratelimit-limit': '60', ...extra }, text: JSON.stringify(json), json });
const compare = (method: string, url: string, rec: Answer, rep: Answer, paced = true) =>
  compareAnswers({ call: 1, method, url, operation: matchOperation(operations, method, url) }, rec, rep, schemas, headers, paced).map((d) => [d.rule, d.field ?? null, d.recorded, d.replayed]);

const BUILD = { id: 'b1', targetId: 't1', buildType: 'single', kind: 'blog', status: 'drafting', completedAt: null, stages: [{ stage: 'research', status: 'done' }] };

describe('drift: one answer against its recording', () => {
  it('compares no id, text, number or timestamp, and lets null stand for "not yet"', () => {
    const rec = answer(200, { build: BUILD, deliverables: [] });
    const rep = answer(200, { build: { ...BUILD, id: 'b2', targetId: 't9', completedAt: '2026-11-26T10:00:00Z' }, deliverables: [{ id: 'd1' }] });
    expect(compare('GET', '/api/v1/builds/b1', rec, rep)).toEqual([]);
  });

  it('names a missing, an added and a retyped field by its path, and an enumerated value that changed', () => {
    const rec = answer(200, { build: BUILD, deliverables: [] });
    const { kind: _kind, ...noKind } = BUILD;
    const rep = answer(200, { build: { ...noKind, buildType: 'suite', extra: true, stages: 'done' }, deliverables: [] });
    expect(compare('GET', '/api/v1/builds/b1', rec, rep)).toEqual([
      ['fieldMissing', 'build.kind', 'string', null],
      ['fieldAdded', 'build.extra', null, 'boolean'],
      ['enumValue', 'build.buildType', 'single', 'suite'],
      ['fieldType', 'build.stages', 'array', 'string'],
    ]);
  });

  it('compares only the fields both sides have under a resource in another state (a build polled at another stage)', () => {
    const rec = answer(200, { build: BUILD, deliverables: [] });
    const rep = answer(200, { build: { ...BUILD, status: 'merging', stages: [{ stage: 'research', status: 'running' }], progressNote: 'x' }, deliverables: [] });
    expect(compare('GET', '/api/v1/builds/b1', rec, rep)).toEqual([]);
  });

  it('reports a different status alone (with the error code), and the documented headers otherwise', () => {
    expect(compare('POST', '/api/v1/builds', answer(202, { buildId: 'b1' }), answer(402, { error: 'short', code: 'INSUFFICIENT_TOKENS', details: {} }))).toEqual([
      ['status', null, 202, 402],
      ['errorCode', 'code', null, 'INSUFFICIENT_TOKENS'],
    ]);
    const rec = answer(200, { balance: 1, lifetimePurchased: 1, lifetimeUsed: 0 }, { 'x-ratelimit-remaining': '59' });
    expect(compare('GET', '/api/v1/tokens/balance', rec, answer(200, { balance: 7, lifetimePurchased: 9, lifetimeUsed: 2 }, { 'x-ratelimit-limit': '120' }))).toEqual([
      ['headerValue', 'x-ratelimit-limit', '60', '120'],
      ['headerMissing', 'x-ratelimit-remaining', '59', null],
    ]);
    // Unpaced (no clock to move), which bucket is the tightest depends on how fast the calls came.
    expect(compare('GET', '/api/v1/tokens/balance', rec, answer(200, { balance: 7, lifetimePurchased: 9, lifetimeUsed: 2 }, { 'x-ratelimit-limit': '120', 'x-ratelimit-remaining': '3' }), false)).toEqual([]);
  });

  it('reads an MCP answer from its event stream, and an MCP tool error by its code', () => {
    const sse = (code: string) => `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: 2, result: { isError: true, content: [], structuredContent: { error: 'x', code, details: {} } } })}\n\n`;
    const mcp = (code: string): Answer => ({ status: 200, headers: { 'content-type': 'text/event-stream' }, text: sse(code), json: parseBody(sse(code), 'text/event-stream') });
    expect(compare('POST', '/mcp', mcp('NOT_FOUND'), mcp('NOT_FOUND'))).toEqual([]);
    expect(compare('POST', '/mcp', mcp('NOT_FOUND'), mcp('INTERNAL_ERROR'))).toEqual([['errorCode', 'code', 'NOT_FOUND', 'INTERNAL_ERROR']]);
  });
});

describe('drift: what a replay learns and how it follows builds', () => {
  it('maps ids and redacted secrets from answers side by side, into URLs, bodies and percent-encoded paths', () => {
    const ids = new IdMap();
    const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
    ids.learn({ build: { id: uuid(1) }, share: { token: '…9f2c', hint: 'svc_live_…aaaa' } }, { build: { id: uuid(2) }, share: { token: 'real-token-value', hint: 'svc_live_…bbbb' } });
    expect(ids.substitute(`/api/v1/builds/${uuid(1)}?x=1`)).toBe(`/api/v1/builds/${uuid(2)}?x=1`);
    expect(ids.substitute('/api/v1/shared/%E2%80%A69f2c')).toBe('/api/v1/shared/real-token-value');
    expect(ids.substituteJson({ buildId: uuid(1), note: 'kept' })).toEqual({ buildId: uuid(2), note: 'kept' });
    expect(ids.get('svc_live_…aaaa')).toBeUndefined(); // a hint is no value to send
  });

  it('gives each recorded key the role its answers show', () => {
    const entry = (authorization: string, method: string, path: string, status: number, code?: string, body?: unknown): HarEntry =>
      ({ startedDateTime: '2026-11-26T10:00:00Z', request: { method, url: `http://x${path}`, headers: [{ name: 'authorization', value: authorization }], ...(body ? { postData: { mimeType: 'application/json', text: JSON.stringify(body) } } : {}) }, response: { status, headers: [], content: { size: 0, mimeType: 'application/json', text: code ? JSON.stringify({ result: { isError: true, structuredContent: { code } }, code }) : '{}' } } }) as unknown as HarEntry;
    const roles = credentialRoles([
      entry('Bearer svc_live_…aaaa', 'POST', '/api/v1/targets', 201),
      entry('Bearer svc_live_…bbbb', 'GET', '/api/v1/tokens/balance', 200),
      entry('Bearer svc_live_…bbbb', 'POST', '/api/v1/targets', 403, 'SCOPE_REQUIRED'),
      entry('Bearer svc_live_…cccc', 'GET', '/api/v1/tokens/balance', 401, 'INVALID_API_KEY'),
      // An MCP tool call is judged by its tool's operation: createTarget refused for scope.
      entry('Bearer sim_at_…dddd', 'POST', '/mcp', 200, 'SCOPE_REQUIRED', { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'createTarget', arguments: {} } }),
      entry('Bearer sim_at_…dddd', 'POST', '/mcp', 200, undefined, { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'getTokenBalance', arguments: {} } }),
    ], operations);
    expect(Object.fromEntries(roles)).toEqual({ 'Bearer svc_live_…aaaa': 'readWrite', 'Bearer svc_live_…bbbb': 'readOnly', 'Bearer svc_live_…cccc': 'revoked', 'Bearer sim_at_…dddd': 'readOnly' });
  });

  it('holds build states as sequences: skipped (when the polls would have seen it), backwards, another end', () => {
    const states = new StateTracker();
    const poll = (side: 'recorded' | 'replayed', status: string, call: number) => states.observe('b1', side, { status, call, method: 'GET', url: '/api/v1/builds/b1' });
    ['pending', 'researching', 'critiquing', 'critiquing', 'completed'].forEach((s, i) => poll('recorded', s, i + 1));
    ['researching', 'merging', 'drafting', 'failed'].forEach((s, i) => poll('replayed', s, i + 1));
    expect(states.drifts().map((d) => [d.rule, d.recorded])).toEqual([
      ['stateOrder', ['pending', 'researching', 'critiquing', 'completed']],
      ['stateSkipped', 'critiquing'], // seen at two polls, between states the replay saw; pending came before its first poll
      ['stateFinal', 'completed'],
    ]);
  });
});
