import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import formatsModule from 'ajv-formats';
import { parse } from 'yaml';
import type { ContractLevel } from '../shared/contract-validator.js';
import { documentedView } from '../shared/documented-view.js';

const addFormats = ((formatsModule as unknown as { default?: unknown }).default ?? formatsModule) as (ajv: Ajv2020) => Ajv2020;

type Json = Record<string, any>;

interface RequestRules {
  query: Array<{ name: string; required: boolean; validate: ValidateFunction; integer: boolean }>;
  headers: Array<{ name: string; required: boolean; validate: ValidateFunction }>;
  body?: { required: boolean; validate: ValidateFunction | undefined };
  /** Query names the operation knows: any other is undocumented (strict level). */
  known: Set<string>;
}

/**
 * What the contract asks of a request: its query and header parameters, and its JSON body,
 * per operation (at the documented level, what openapi.yaml infers is set aside). A request
 * that breaks them is the client's mistake, which the server must refuse: the inspector flags
 * it only when the server answered it with a success.
 */
export class RequestChecker {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  private readonly rules = new Map<string, RequestRules>();

  constructor(file: string, private readonly level: ContractLevel) {
    addFormats(this.ajv);
    const original = parse(readFileSync(file, 'utf8')) as Json;
    const doc = level === 'documented' ? documentedView(original) : original;
    this.ajv.addSchema(doc, 'request-contract');
    const deref = (node: Json): Json => (node?.$ref ? deref((node.$ref as string).slice(2).split('/').reduce((n: Json, k: string) => n?.[k.replace(/~1/g, '/')], doc)) : node);
    const compile = (schema: Json) => this.ajv.compile(anchor(schema));
    for (const item of Object.values((doc.paths ?? {}) as Json)) {
      const shared = ((item as Json).parameters ?? []) as Json[];
      for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
        const op = (item as Json)[method];
        if (!op?.operationId) continue;
        const params = [...shared, ...((op.parameters ?? []) as Json[])].map(deref);
        const body = op.requestBody ? deref(op.requestBody) : undefined;
        const bodySchema = body?.content?.['application/json']?.schema;
        this.rules.set(op.operationId, {
          query: params.filter((p) => p.in === 'query').map((p) => ({ name: p.name, required: p.required === true, validate: compile(p.schema ?? {}), integer: deref(p.schema ?? {}).type === 'integer' })),
          headers: params.filter((p) => p.in === 'header').map((p) => ({ name: String(p.name).toLowerCase(), required: p.required === true, validate: compile(p.schema ?? {}) })),
          body: body ? { required: body.required === true, validate: bodySchema ? compile(bodySchema) : undefined } : undefined,
          known: new Set(params.filter((p) => p.in === 'query').map((p) => p.name as string)),
        });
      }
    }
  }

  /** What the request breaks, as short messages (none when it is as the contract asks). */
  check(operationId: string, url: string, headers: Record<string, string>, body: Uint8Array | undefined): string[] {
    const rules = this.rules.get(operationId);
    if (!rules) return [];
    const problems: string[] = [];
    const query = new URLSearchParams(url.split('?')[1] ?? '');
    for (const p of rules.query) {
      const value = query.get(p.name);
      if (value === null) {
        if (p.required) problems.push(`query parameter ${p.name} is required`);
        continue;
      }
      const typed = p.integer && /^-?\d+$/.test(value) ? Number(value) : value;
      if (!p.validate(typed)) problems.push(`query parameter ${p.name}=${value}: ${errors(p.validate)}`);
    }
    if (this.level === 'strict') for (const name of query.keys()) if (!rules.known.has(name)) problems.push(`query parameter ${name} is not documented`);
    for (const h of rules.headers) {
      const value = headers[h.name];
      if (value === undefined) {
        if (h.required) problems.push(`header ${h.name} is required`);
      } else if (!h.validate(value)) problems.push(`header ${h.name}: ${errors(h.validate)}`);
    }
    if (rules.body) problems.push(...this.checkBody(rules.body, headers, body));
    return problems;
  }

  private checkBody(rule: NonNullable<RequestRules['body']>, headers: Record<string, string>, body: Uint8Array | undefined): string[] {
    if (!body || body.byteLength === 0) return rule.required ? ['the request body is required'] : [];
    if (!rule.validate) return [];
    if (!/^application\/([a-z.+-]*\+)?json\b/i.test(headers['content-type'] ?? '')) return [`the body must be application/json, not ${JSON.stringify(headers['content-type'] ?? null)}`];
    let json: unknown;
    try {
      json = JSON.parse(new TextDecoder().decode(body));
    } catch {
      return ['the body is not well-formed JSON'];
    }
    return rule.validate(json) ? [] : [`body: ${errors(rule.validate)}`];
  }
}

function errors(validate: ValidateFunction): string {
  return (validate.errors ?? [])
    .slice(0, 3)
    .map((e) => `${e.instancePath || '(root)'} ${e.message ?? ''}`)
    .join('; ');
}

function anchor(schema: unknown): any {
  if (Array.isArray(schema)) return schema.map(anchor);
  if (schema && typeof schema === 'object') {
    return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' && v.startsWith('#') ? `request-contract${v}` : anchor(v)]));
  }
  return schema;
}
