import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { harness, type ApiResponse } from './support/harness.js';

/**
 * Scopes across the WHOLE API (spec, Authentication 2-5): the operations are read from
 * openapi.yaml when the tests run, so an operation added later is checked without any
 * change here.
 */

type Json = Record<string, any>;

const doc = parse(readFileSync(fileURLToPath(new URL('../openapi.yaml', import.meta.url)), 'utf8')) as Json;
const HTTP_METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;
const RATE_LIMIT_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];

interface DocumentedOperation {
  operationId: string;
  method: string;
  path: string;
  scope: string;
  responses: Record<string, Json>;
}

/** Follows a local `$ref` such as `#/components/responses/Unauthorized`. */
function resolve(node: Json): Json {
  if (typeof node?.$ref !== 'string') return node;
  return resolve(node.$ref.slice(2).split('/').reduce((at: Json, part: string) => at[part], doc));
}

const operations: DocumentedOperation[] = Object.entries(doc.paths as Json).flatMap(([path, item]) =>
  HTTP_METHODS.filter((m) => item[m]?.['x-required-scope']).map((m) => ({
    operationId: item[m].operationId as string,
    method: m.toUpperCase(),
    path,
    scope: item[m]['x-required-scope'] as string,
    responses: Object.fromEntries(Object.entries(item[m].responses as Json).map(([status, r]) => [status, resolve(r)])),
  })),
);

let uuidCount = 0;
/** A fresh UUID for every path parameter: no resource has it, and the scope check comes first. */
function urlOf(op: DocumentedOperation): string {
  return op.path.replace(/\{[^}]+\}/g, () => `00000000-0000-4000-8000-${(++uuidCount).toString(16).padStart(12, '0')}`);
}

function expectRateLimitHeaders(res: ApiResponse): void {
  for (const name of RATE_LIMIT_HEADERS) expect(res.headers[name.toLowerCase()], name).toMatch(/^\d+$/);
}

describe('scopes across the whole API (spec, Authentication 2-5)', () => {
  it('finds the operations of every part of the API in openapi.yaml', () => {
    const ids = operations.map((o) => o.operationId);
    for (const id of ['getTokenBalance', 'createBuild', 'getDeliverable', 'listApiKeys', 'createApiKey', 'rotateApiKey', 'revokeApiKey', 'purchaseTokens']) {
      expect(ids).toContain(id);
    }
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('leaves no operation without a scope unless it is explicitly public (security: [])', () => {
    for (const [path, item] of Object.entries(doc.paths as Json)) {
      for (const m of HTTP_METHODS) {
        const op = item[m];
        if (op && !op['x-required-scope']) expect(op.security, `${m.toUpperCase()} ${path}`).toEqual([]);
      }
    }
  });

  describe.each(operations.map((op) => [`${op.method} ${op.path} (${op.operationId})`, op] as const))('%s', (_, op) => {
    const byMethod = op.method === 'GET' ? 'svc:read' : 'svc:write';
    // The behaviour is checked against what the operation declares, so a wrong declaration
    // fails the declaration test alone.
    const needed = op.scope;

    it(`declares ${byMethod}: reads need svc:read, writes svc:write`, () => {
      expect(op.scope).toBe(byMethod);
    });

    it('documents 401, 403 and 429, and the three rate-limit headers on every response', () => {
      for (const status of ['401', '403', '429']) expect(op.responses, `response ${status}`).toHaveProperty(status);
      for (const [status, response] of Object.entries(op.responses)) {
        for (const name of RATE_LIMIT_HEADERS) expect(response.headers ?? {}, `${status} ${name}`).toHaveProperty(name);
      }
    });

    it('answers 403 SCOPE_REQUIRED to the key without the scope, 401 to a revoked key and to no key', async () => {
      const h = harness();
      const lacking = needed === 'svc:read' ? h.keys.writeOnly : h.keys.readOnly;
      const body = op.method === 'GET' || op.method === 'DELETE' ? undefined : {};
      const url = urlOf(op);

      const forbidden = await h.call(op.method, url, { key: lacking, body });
      expect(forbidden.status).toBe(403);
      expect(forbidden.body).toMatchObject({ code: 'SCOPE_REQUIRED', details: { requiredScope: needed } });
      expect(forbidden.body.details.grantedScopes).not.toContain(needed);
      expect(forbidden.body.error).toContain(needed);

      const revoked = await h.call(op.method, url, { key: h.keys.revoked, body });
      expect(revoked.status).toBe(401);
      expect(revoked.body.code).toBe('INVALID_API_KEY');

      const anonymous = await h.call(op.method, url, { key: null, body });
      expect(anonymous.status).toBe(401);
      expect(anonymous.body.code).toBe('UNAUTHORIZED');

      for (const res of [forbidden, revoked, anonymous]) expectRateLimitHeaders(res);
    });
  });
});
