import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import formatsModule from 'ajv-formats';
import { readContractDocument } from './openapi-model.js';
import { documentedView, SPEC_ERROR_SCHEMA } from './documented-view.js';
import { preflightViolations } from './preflight-rule.js';
import { anchorRefs, escapePointer } from './schema-refs.js';
import type { ObservedResponse, Violation } from './observed-response.js';

export type { ObservedResponse, Violation } from './observed-response.js';

// ajv-formats is CommonJS: under NodeNext its default import is the module object.
const addFormats = ((formatsModule as unknown as { default?: unknown }).default ?? formatsModule) as (ajv: Ajv2020) => Ajv2020;

type Json = Record<string, any>;

/**
 * `strict` (the default) holds responses to everything the documents state. `documented`
 * sets aside what openapi.yaml marks `x-inferred: true`: inferred properties are not
 * required and closed objects are open; an inferred status stands for any status of its
 * class (a 200 where 201 is inferred); an error answered with an inferred status needs
 * only the spec's `{ error, code, details }`; inferred headers are not required; an
 * inferred operation gets only those loose checks. At either level a documented header
 * must hold a valid value.
 */
export type ContractLevel = 'documented' | 'strict';

export interface ContractValidatorOptions {
  level?: ContractLevel;
  /**
   * Whether a response may carry headers the contract does not mention. OpenAPI does not
   * forbid them, and every proxy adds some (Server, Via, HSTS, cookies): the contract suite
   * and the validation proxy allow them. The strict default without this option is for a
   * server that owns every header it sends (the simulator's own tests).
   */
  allowUndocumentedHeaders?: boolean;
}

const sharedValidators = new Map<string, ContractValidator>();

/** Headers of the transport itself, allowed on any response without being documented. */
const TRANSPORT_HEADERS = /^(content-type|content-length|date|connection|keep-alive|transfer-encoding|vary|access-control-[a-z-]+)$/;

interface CompiledOperation {
  id: string;
  method: string;
  segments: string[];
  responses: Json;
  doc: DocumentEntry;
  inferred: boolean;
}

interface DocumentEntry {
  id: string;
  doc: Json;
}

/**
 * Checks observed responses against OpenAPI 3.1 documents: the status is documented for
 * the operation, every documented required header is present and valid (and, unless
 * allowed, no undocumented header appears), the content type is documented, and the body
 * matches its schema. Each violation names the operation, the status and the schema path.
 */
export class ContractValidator {
  private readonly ajv: Ajv2020;
  private readonly operations: CompiledOperation[] = [];
  private errorSchema: Json | undefined;
  private readonly validators = new WeakMap<object, ValidateFunction>();
  readonly level: ContractLevel;
  private readonly allowUndocumentedHeaders: boolean;

  constructor(documents: Array<{ id: string; doc: Json }>, options: ContractValidatorOptions = {}) {
    this.level = options.level ?? 'strict';
    this.allowUndocumentedHeaders = options.allowUndocumentedHeaders ?? this.level === 'documented';
    this.ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
    addFormats(this.ajv);
    for (const original of documents) {
      const entry = this.level === 'documented' ? { id: original.id, doc: documentedView(original.doc) } : original;
      this.ajv.addSchema(entry.doc, entry.id);
      for (const [template, item] of Object.entries(entry.doc.paths as Json)) {
        for (const method of ['get', 'put', 'post', 'patch', 'delete']) {
          const op = (item as Json)[method];
          if (!op) continue;
          this.operations.push({
            id: op.operationId,
            method: method.toUpperCase(),
            segments: template.split('/').slice(1),
            responses: op.responses,
            doc: entry,
            inferred: op['x-inferred'] === true,
          });
        }
      }
    }
  }

  static fromFiles(files: Record<string, string>, options: ContractValidatorOptions = {}): ContractValidator {
    return new ContractValidator(
      // A copy: the validator's compiler may annotate what it is given.
      Object.entries(files).map(([id, path]) => ({ id, doc: structuredClone(readContractDocument(path)) })),
      options,
    );
  }

  /**
   * One validator per contract files and options for the whole process: compiling the schemas
   * is most of a suite run's own work, and a validator holds no state a run could leave behind
   * (the documents are read once per process too, readContractDocument). Runs that share a
   * process (a test run, a fuzzer) compile each schema once.
   */
  static shared(files: Record<string, string>, options: ContractValidatorOptions = {}): ContractValidator {
    const key = JSON.stringify([files, options.level ?? 'strict', options.allowUndocumentedHeaders ?? null]);
    let validator = sharedValidators.get(key);
    if (!validator) sharedValidators.set(key, (validator = ContractValidator.fromFiles(files, options)));
    return validator;
  }

  /** The documented operations, for coverage reports. */
  operationIds(documentId?: string): string[] {
    return this.operations.filter((o) => !documentId || o.doc.id === documentId).map((o) => o.id);
  }

  /** The operation a request goes to, or undefined. */
  findOperation(method: string, url: string): CompiledOperation | undefined {
    const parts = url.split('?')[0]!.split('/').slice(1);
    const m = method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase();
    const candidates = this.operations.filter((o) => o.method === m && o.segments.length === parts.length);
    const matches = candidates.filter((o) => o.segments.every((s, i) => s.startsWith('{') || s === parts[i]));
    // A static segment beats a template parameter.
    return matches.sort((a, b) => staticCount(b) - staticCount(a))[0];
  }

  validate(observed: ObservedResponse): Violation[] {
    const headers = lowerCaseHeaders(observed.headers);
    if (observed.method.toUpperCase() === 'OPTIONS') return preflightViolations(observed, headers);
    const op = this.findOperation(observed.method, observed.url);
    if (!op) return this.checkUnroutable(observed, headers);
    const violations: Violation[] = [];
    const fail = (rule: string, message: string) => violations.push({ operation: op.id, status: observed.status, rule, message });

    const resolved = this.resolveResponse(op, observed.status);
    if (!resolved) {
      fail('status', `status ${observed.status} is not documented for ${op.id} (documented: ${Object.keys(op.responses).join(', ')})`);
      return violations;
    }
    const { key: responseKey, response, loose } = resolved;
    const pointer = `#/paths/${escapePointer('/' + op.segments.join('/'))}/${op.method.toLowerCase()}/responses/${responseKey}`;
    const documentedHeaders = Object.fromEntries(Object.entries((response.headers ?? {}) as Json).map(([k, v]) => [k.toLowerCase(), this.deref(op.doc, v)]));
    const documentedLevel = this.level === 'documented';

    for (const [name, spec] of Object.entries(documentedHeaders)) {
      const value = headers[name];
      if (documentedLevel && spec['x-inferred'] === true) continue;
      if (value === undefined) {
        if (spec.required) fail('header', `required header ${name} is missing`);
        continue;
      }
      const schema = spec.schema ?? {};
      const typed = schema.type === 'integer' || schema.type === 'number' ? (/^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value) : value;
      const errors = this.check(op.doc.id, `${pointer} header ${name}`, schema, typed);
      for (const e of errors) fail('header', `header ${name}=${JSON.stringify(value)} ${e}`);
    }
    for (const name of Object.keys(headers)) {
      if (this.allowUndocumentedHeaders) break;
      if (!(name in documentedHeaders) && !TRANSPORT_HEADERS.test(name)) fail('header', `header ${name} is not documented for ${op.id} ${observed.status}`);
    }

    const content = (response.content ?? {}) as Json;
    const mediaTypes = Object.keys(content);
    if (mediaTypes.length === 0) {
      if (observed.body !== '') fail('body', `a body was sent but ${op.id} ${observed.status} documents none`);
      return violations;
    }
    const mediaType = (headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (!mediaTypes.includes(mediaType)) {
      fail('content-type', `content type ${JSON.stringify(headers['content-type'] ?? null)} is not one of ${mediaTypes.join(', ')}`);
      return violations;
    }
    let schema = content[mediaType].schema as Json | undefined;
    if (loose) schema = observed.status >= 400 ? SPEC_ERROR_SCHEMA : undefined;
    if (!schema) return violations;
    let body: unknown = observed.body;
    if (mediaType.endsWith('json')) {
      try {
        body = JSON.parse(observed.body);
      } catch {
        fail('body', 'the body is not valid JSON');
        return violations;
      }
    }
    const where = `${pointer}/content/${escapePointer(mediaType)}/schema${schema.$ref ? ` (${schema.$ref})` : ''}`;
    for (const e of this.check(op.doc.id, where, schema, body)) fail('body', e);
    return violations;
  }

  /**
   * The documented response a status answers to. At the `documented` level an inferred
   * status stands for its whole class, and an inferred response or operation is checked
   * loosely (`loose`: errors need only the spec's error object, successes no body shape).
   */
  private resolveResponse(op: CompiledOperation, status: number): { key: string; response: Json; loose: boolean } | undefined {
    const exact = [String(status), `${String(status)[0]}XX`, 'default'].find((k) => k in op.responses);
    if (this.level === 'strict') return exact ? { key: exact, response: this.deref(op.doc, op.responses[exact]), loose: false } : undefined;
    const isInferred = (key: string) => this.isInferredResponse(op, key);
    if (exact) return { key: exact, response: this.deref(op.doc, op.responses[exact]), loose: op.inferred || (status >= 400 && isInferred(exact)) };
    const sameClass = Object.keys(op.responses).find((k) => k[0] === String(status)[0] && isInferred(k));
    if (!sameClass) return undefined;
    return { key: sameClass, response: this.deref(op.doc, op.responses[sameClass]), loose: op.inferred || status >= 400 };
  }

  private isInferredResponse(op: CompiledOperation, key: string): boolean {
    let node = op.responses[key] as Json;
    // The mark may sit on the reference's target (a shared response) or on the inline response.
    for (let depth = 0; node && depth < 10; depth++) {
      if (node['x-inferred'] === true) return true;
      if (typeof node.$ref !== 'string') return false;
      node = this.derefOnce(op.doc, node.$ref);
    }
    return false;
  }

  private derefOnce(entry: DocumentEntry, ref: string): Json {
    return ref
      .replace(/^#\//, '')
      .split('/')
      .reduce((n: Json, part: string) => n[part.replace(/~1/g, '/').replace(/~0/g, '~')], entry.doc);
  }

  /** Whether an operation is an inference of openapi.yaml (its path and payload are not in the spec). */
  isInferredOperation(operationId: string): boolean {
    return this.operations.some((o) => o.id === operationId && o.inferred);
  }

  /** Throws with every violation listed when a response breaks the contract. */
  assertValid(observed: ObservedResponse): void {
    const violations = this.validate(observed);
    if (violations.length > 0) {
      throw new Error(
        `${observed.method} ${observed.url} → ${observed.status} breaks the contract:\n` +
          violations.map((v) => `  [${v.operation} ${v.status} ${v.rule}] ${v.message}`).join('\n') +
          `\n  body: ${observed.body.slice(0, 500)}`,
      );
    }
  }

  /** A request no operation answers must get a 404 or 405 error body. */
  private checkUnroutable(observed: ObservedResponse, headers: Record<string, string>): Violation[] {
    const violations: Violation[] = [];
    const fail = (rule: string, message: string) => violations.push({ operation: '(none)', status: observed.status, rule, message });
    if (observed.status !== 404 && observed.status !== 405) fail('status', `no operation matches ${observed.method} ${observed.url}, so only 404 or 405 may answer`);
    if (observed.status === 405 && !headers.allow) fail('header', '405 without an Allow header');
    let body: unknown;
    try {
      body = JSON.parse(observed.body);
    } catch {
      fail('body', 'the body is not valid JSON');
      return violations;
    }
    const errorDoc = this.operations[0]!.doc.id;
    this.errorSchema ??= { $ref: '#/components/schemas/Error' };
    for (const e of this.check(errorDoc, '#/components/schemas/Error', this.errorSchema, body)) fail('body', e);
    return violations;
  }

  /** Validates against a schema object taken out of its document (its local $refs are re-anchored there). */
  private check(docId: string, where: string, schema: Json, value: unknown): string[] {
    let validate = this.validators.get(schema);
    if (!validate) {
      validate = this.ajv.compile(anchorRefs(schema, docId) as Json);
      this.validators.set(schema, validate);
    }
    if (validate(value)) return [];
    return (validate.errors ?? []).map(
      (e: ErrorObject) => `at ${e.instancePath || '(root)'} ${e.message ?? ''}${e.params && 'additionalProperty' in e.params ? ` (${String(e.params.additionalProperty)})` : ''} [schema ${where} ${e.schemaPath}]`,
    );
  }

  private deref(entry: DocumentEntry, node: Json): Json {
    let current = node;
    while (current && typeof current.$ref === 'string') current = this.derefOnce(entry, current.$ref);
    return current;
  }
}

function staticCount(op: CompiledOperation): number {
  return op.segments.filter((s) => !s.startsWith('{')).length;
}

function lowerCaseHeaders(headers: ObservedResponse['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}
