import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { createApp } from '../src/app/create-app.js';
import { createSimulator } from '../src/simulator.js';
import { assertContract } from './support/contract.js';

/**
 * A control call with a field the endpoint does not take is told which fields it takes (and
 * the nearest, for a typo), on every control endpoint whose body is a closed object: what
 * the REST API says of its own bodies too.
 */
const control = parse(readFileSync(new URL('../simulator-control.yaml', import.meta.url), 'utf8')) as { paths: Record<string, Record<string, { operationId: string; requestBody?: { content: Record<string, { schema: Record<string, unknown> }> } }>>; components: { schemas: Record<string, Record<string, unknown>> } };
const deref = (schema: Record<string, unknown>) => (typeof schema.$ref === 'string' ? control.components.schemas[schema.$ref.split('/').pop()!]! : schema);

async function post(app: ReturnType<typeof createApp>, path: string, body: unknown) {
  const res = await app.fetch(new Request(`http://127.0.0.1${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }));
  const text = await res.text();
  assertContract({ method: 'POST', url: path, status: res.status, headers: Object.fromEntries(res.headers), body: text });
  return { status: res.status, json: JSON.parse(text) };
}

describe('control errors', () => {
  it('list the fields allowed and the nearest one: POST /_sim/faults with a mistyped field', async () => {
    const app = createApp(createSimulator());
    const refused = await post(app, '/_sim/faults', { operationId: 'getBuild', respons: { status: 500 } });
    expect(refused.status).toBe(400);
    expect(refused.json.details.fields).toEqual([{ path: 'body.respons', message: expect.stringMatching(/^is not a known field: did you mean response\? \(the fields are accountId, operationId, path, method, keyHint, response, latencyMs, .*\)$/) }]);
  });

  const closed = Object.entries(control.paths).flatMap(([path, methods]) => {
    const body = methods.post?.requestBody?.content['application/json']?.schema;
    const schema = body && deref(body);
    return schema?.additionalProperties === false && !path.includes('{') ? [[methods.post!.operationId, path, Object.keys(schema.properties as object)] as const] : [];
  });

  it('list the fields allowed on every control endpoint whose body is a closed object', async () => {
    expect(closed.length).toBeGreaterThan(3);
    const app = createApp(createSimulator());
    for (const [operationId, path, fields] of closed) {
      const refused = await post(app, path, { zzUnknownField: 1 });
      const problem = refused.json.details?.fields?.find((f: { path: string }) => f.path === 'body.zzUnknownField');
      expect(problem?.message, `${operationId} (POST ${path}) answered ${JSON.stringify(refused.json)}`).toBe(`is not a known field (the fields are ${fields.join(', ')})`);
    }
  });
});
