import fc, { type Arbitrary } from 'fast-check';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import formatsModule from 'ajv-formats';
import { flatten, typesOf, valid, type KnownIds } from './schema-arbitrary.js';
import { invalid } from './schema-mutation.js';

// ajv-formats is CommonJS: under NodeNext its default import is the module object.
const addFormats = ((formatsModule as unknown as { default?: unknown }).default ?? formatsModule) as (ajv: Ajv2020) => Ajv2020;

type Json = Record<string, any>;

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: Json;
}

export interface Operation {
  id: string;
  method: string;
  template: string;
  parameters: Parameter[];
  body?: { required: boolean; schema: Json };
  secured: boolean;
}

/** One request, ready to send; `mode` says whether it was meant to be valid. */
export interface FuzzRequest {
  operation: string;
  mode: 'positive' | 'negative';
  /** What the negative request breaks (a location and a rule), for the report. */
  mutation?: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

/** Every operation of a document, with its path-level and own parameters resolved. */
export function readOperations(doc: Json): Operation[] {
  const resolve = resolverOf(doc);
  const out: Operation[] = [];
  for (const [template, rawItem] of Object.entries((doc.paths ?? {}) as Json)) {
    const item = resolve.node(rawItem as Json);
    for (const method of METHODS) {
      const op = item[method] as Json | undefined;
      if (!op) continue;
      const byKey = new Map<string, Parameter>();
      for (const raw of [...(item.parameters ?? []), ...(op.parameters ?? [])] as Json[]) {
        const p = resolve.node(raw);
        if (p.in === 'cookie') continue;
        byKey.set(`${p.in}:${p.name}`, { name: p.name, in: p.in, required: p.required === true, schema: p.schema ?? {} });
      }
      const requestBody = op.requestBody ? resolve.node(op.requestBody as Json) : undefined;
      const bodySchema = requestBody?.content?.['application/json']?.schema as Json | undefined;
      const security = (op.security ?? doc.security ?? []) as Json[];
      out.push({
        id: op.operationId,
        method: method.toUpperCase(),
        template,
        parameters: [...byKey.values()],
        body: bodySchema ? { required: requestBody!.required === true, schema: bodySchema } : undefined,
        secured: security.some((s) => Object.keys(s).length > 0),
      });
    }
  }
  return out;
}

export function resolverOf(doc: Json) {
  const at = (ref: string): Json =>
    ref
      .replace(/^#\//, '')
      .split('/')
      .reduce((n: Json, k: string) => n?.[k.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
  const node = (n: Json): Json => (n && typeof n.$ref === 'string' ? node(at(n.$ref)) : n);
  return { at, node };
}

/** Checks values against schemas of one document; parameters are checked as the server reads them (strings coerced). */
export class RequestChecker {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: false, validateSchema: false });
  private readonly coercing = new Ajv2020({ strict: false, allErrors: false, validateSchema: false, coerceTypes: 'array' });
  private readonly cache = new WeakMap<object, ValidateFunction>();
  private readonly paramCache = new WeakMap<object, ValidateFunction>();

  constructor(doc: Json) {
    addFormats(this.ajv);
    addFormats(this.coercing);
    this.ajv.addSchema(doc, 'doc');
    this.coercing.addSchema(doc, 'doc');
  }

  body(schema: Json, value: unknown): boolean {
    let v = this.cache.get(schema);
    if (!v) this.cache.set(schema, (v = this.ajv.compile(anchor(schema))));
    return v(value);
  }

  parameter(schema: Json, raw: string | string[]): boolean {
    let v = this.paramCache.get(schema);
    if (!v) this.paramCache.set(schema, (v = this.coercing.compile({ type: 'object', properties: { v: anchor(schema) } })));
    return v({ v: raw });
  }
}

function anchor(schema: unknown): any {
  if (Array.isArray(schema)) return schema.map(anchor);
  if (schema && typeof schema === 'object') {
    return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' && v.startsWith('#') ? `doc${v}` : anchor(v)]));
  }
  return schema;
}

/**
 * How a parameter value travels: strings as they are, others as their JSON text; arrays of an
 * array parameter repeat the name (form, explode). An array given to a scalar parameter
 * travels as its JSON text: a repeated name is another test, not this value.
 */
function serialize(value: unknown, schema?: Json, resolve?: (ref: string) => Json): string | string[] {
  if (Array.isArray(value) && (!schema || !resolve || typesOf(flatten(schema, resolve)).includes('array'))) return value.map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
  return typeof value === 'string' ? value : JSON.stringify(value);
}

export interface RequestContext {
  doc: Json;
  checker: RequestChecker;
  known: KnownIds;
  /** Authorization values: the first is the working read+write credential; the rest are wrong in some way. */
  credentials: { good: string; others: Array<string | undefined> };
}

/**
 * Requests for an operation. Positive: every parameter and the body drawn from their
 * schemas, with the working credential. Negative: exactly one thing made invalid (a
 * parameter, the body, its media type, a required part left out, or the credential), and
 * undefined when the document would accept it after all (the caller skips those).
 */
export function requests(op: Operation, ctx: RequestContext, mode: 'positive' | 'negative'): Arbitrary<FuzzRequest | undefined> {
  const resolve = resolverOf(ctx.doc).at;
  const paramArbs = op.parameters.map((p) => {
    // Path parameters are never empty, as in Schemathesis: an empty segment is another URL.
    const value = p.in === 'path' ? valid(p.schema, resolve, ctx.known, p.name).filter((v) => serialize(v).length > 0) : valid(p.schema, resolve, ctx.known, p.name);
    return p.required ? value.map((v) => v as unknown) : fc.option(value, { nil: undefined, freq: 3 });
  });
  const bodyArb = op.body ? (op.body.required ? valid(op.body.schema, resolve, ctx.known) : fc.option(valid(op.body.schema, resolve, ctx.known), { nil: undefined, freq: 4 })) : fc.constant(undefined);
  const positive = fc.tuple(fc.tuple(...paramArbs), bodyArb).map(([values, body]) => build(op, ctx, values as unknown[], body === undefined ? undefined : JSON.stringify(body)));
  if (mode === 'positive') return positive;

  const breakers: Arbitrary<FuzzRequest | undefined>[] = [];
  op.parameters.forEach((p, i) => {
    breakers.push(
      fc.tuple(positive, invalid(p.schema, resolve, ctx.known)).map(([req, bad]) => {
        const raw = serialize(bad, p.schema, resolve);
        // An empty value is no value at all (no query pair, another path): not this parameter's test.
        if (raw.length === 0 || ctx.checker.parameter(p.schema, raw)) return undefined;
        return rebuild(op, ctx, req, i, bad, `${p.in} ${p.name}: ${JSON.stringify(bad).slice(0, 80)}`);
      }),
    );
    if (p.required && p.in !== 'path') breakers.push(positive.map((req) => rebuild(op, ctx, req, i, undefined, `${p.in} ${p.name}: missing`)));
  });
  if (op.body) {
    const body = op.body;
    breakers.push(
      fc.tuple(positive, invalid(body.schema, resolve, ctx.known)).map(([req, bad]) =>
        ctx.checker.body(body.schema, bad) ? undefined : { ...req, mode: 'negative' as const, mutation: `body: ${JSON.stringify(bad).slice(0, 120)}`, body: JSON.stringify(bad) },
      ),
    );
    breakers.push(positive.chain((req) => fc.constantFrom('{', '{"a":1,}', '\u0000', '[1,2', '{"a":' + '['.repeat(10000)).map((text) => ({ ...req, mode: 'negative' as const, mutation: `body: not JSON ${JSON.stringify(text.slice(0, 12))}`, body: text }))));
    breakers.push(positive.map((req) => ({ ...req, mode: 'negative' as const, mutation: 'body: text/plain', body: req.body ?? 'text', headers: { ...req.headers, 'content-type': 'text/plain' } })));
    if (body.required) breakers.push(positive.map((req) => ({ ...req, mode: 'negative' as const, mutation: 'body: missing', body: undefined, headers: withoutContentType(req.headers) })));
  }
  if (op.secured) {
    breakers.push(
      fc.tuple(positive, fc.constantFrom(...ctx.credentials.others)).map(([req, auth]) => {
        const headers = { ...req.headers };
        if (auth === undefined) delete headers.authorization;
        else headers.authorization = auth;
        return { ...req, mode: 'negative' as const, mutation: `credential: ${auth === undefined ? 'none' : auth.slice(0, 24)}`, headers };
      }),
    );
  }
  if (breakers.length === 0) return positive;
  return fc.oneof(...breakers);
}

function build(op: Operation, ctx: RequestContext, values: unknown[], body: string | undefined): FuzzRequest {
  let path = op.template;
  const query = new URLSearchParams();
  const headers: Record<string, string> = {};
  op.parameters.forEach((p, i) => {
    const value = values[i];
    if (value === undefined) return;
    const raw = serialize(value, p.schema, resolverOf(ctx.doc).at);
    if (p.in === 'path') path = path.replace(`{${p.name}}`, encodeURIComponent(String(raw)));
    else if (p.in === 'query') for (const v of Array.isArray(raw) ? raw : [raw]) query.append(p.name, v);
    else headers[p.name.toLowerCase()] = headerSafe(Array.isArray(raw) ? raw.join(',') : raw);
  });
  if (op.secured) headers.authorization = ctx.credentials.good;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const search = query.toString();
  return { operation: op.id, mode: 'positive', method: op.method, path: search ? `${path}?${search}` : path, headers, body };
}

/** The same request with parameter i set to another value (undefined: left out). */
function rebuild(op: Operation, ctx: RequestContext, req: FuzzRequest, index: number, value: unknown, mutation: string): FuzzRequest {
  const values = op.parameters.map((p) => readBack(req, op, p));
  values[index] = value;
  return { ...build(op, ctx, values, req.body), mode: 'negative', mutation };
}

function readBack(req: FuzzRequest, op: Operation, p: Parameter): unknown {
  const url = new URL(req.path, 'http://x');
  if (p.in === 'query') {
    const all = url.searchParams.getAll(p.name);
    return all.length === 0 ? undefined : all.length === 1 ? all[0] : all;
  }
  if (p.in === 'header') return req.headers[p.name.toLowerCase()];
  const index = op.template.split('/').indexOf(`{${p.name}}`);
  return decodeURIComponent(url.pathname.split('/')[index] ?? '');
}

/** Header values must be visible Latin-1 for any HTTP client; others go percent-encoded. */
function headerSafe(value: string): string {
  return /^[\x20-\x7e]*$/.test(value) ? value : encodeURIComponent(value);
}

function withoutContentType(headers: Record<string, string>): Record<string, string> {
  const { 'content-type': _ct, ...rest } = headers;
  return rest;
}
