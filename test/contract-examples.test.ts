/**
 * The examples openapi.yaml carries are requests that work: every path parameter and every
 * request body has one, each is valid against its own schema (compiled afresh with ajv from the
 * document as written), and the simulator accepts each request body as it stands, with only the
 * ids of the account's own records put in. Tools that send examples (Dredd, the /docs try-it
 * console, Scalar's generated snippets) then send requests the service takes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { createAjv } from '../src/contract/ajv.js';
import { harness } from './support/harness.js';

interface Parameter { name: string; in: string; example?: unknown; schema: object; $ref?: string }
interface Operation { operationId: string; parameters?: Parameter[]; requestBody?: { content: Record<string, { schema: object; example?: unknown }> } }

const contract = parse(readFileSync(join(import.meta.dirname, '../openapi.yaml'), 'utf8'));
const ajv = createAjv();
ajv.addSchema(contract, 'service');
const rebased = (schema: object) => JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"service#/components/')) as object;
const resolve = (p: Parameter): Parameter => (p.$ref ? contract.components.parameters[p.$ref.split('/').at(-1)!] : p);

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const operations: Array<{ method: string; path: string; op: Operation; params: Parameter[] }> = Object.entries(contract.paths as Record<string, Record<string, unknown>>)
  .flatMap(([path, item]) => METHODS.filter((m) => item[m]).map((method) => {
    const op = item[method] as Operation;
    const params = [...((item.parameters as Parameter[] | undefined) ?? []), ...(op.parameters ?? [])].map(resolve);
    return { method, path, op, params };
  }));
const pathParameters = operations.flatMap(({ op, params }) => params.filter((p) => p.in === 'path').map((p) => [`${op.operationId} ${p.name}`, p] as const));
const bodies = operations.filter(({ op }) => op.requestBody).map((o) => [o.op.operationId, o] as const);

describe('the examples of openapi.yaml', () => {
  it('cover every path parameter, each valid against its schema', () => {
    expect(pathParameters.length).toBeGreaterThan(20);
    const problems = pathParameters.filter(([, p]) => p.example === undefined || !ajv.validate(rebased(p.schema), p.example)).map(([name]) => name);
    expect(problems).toEqual([]);
  });

  it.each(bodies)('%s: its request body example is valid against its schema', (_, { op }) => {
    const media = op.requestBody!.content['application/json']!;
    expect(media.example).toBeDefined();
    expect(ajv.validate(rebased(media.schema), media.example), JSON.stringify(ajv.errors)).toBe(true);
  });

  it('cursor examples and server variables read as every validator reads them', () => {
    expect(ajv.validate(rebased(contract.components.parameters.Cursor.schema), contract.components.parameters.Cursor.example)).toBe(true);
    // swagger-parser (and swagger-cli, Dredd) misread a description on a server variable.
    for (const server of contract.servers) for (const variable of Object.values(server.variables ?? {})) expect(variable).not.toHaveProperty('description');
  });

  // Bodies whose path needs only the account's target (or nothing): sent as written, with that target's id put in.
  const sendable = bodies.filter(([, o]) => o.params.every((p) => p.in !== 'path' || p.name === 'targetId'));
  it.each(sendable)('%s: the simulator accepts its example as it stands', async (_, { method, path, op }) => {
    const h = harness({ speed: 'instant' });
    const targetId = await h.target(undefined, 'examples-target');
    const example = op.requestBody!.content['application/json']!.example as Record<string, unknown>;
    const body = 'targetId' in example ? { ...example, targetId } : example;
    const res = await h.call(method.toUpperCase(), path.replace('{targetId}', targetId), { body });
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  });
});
