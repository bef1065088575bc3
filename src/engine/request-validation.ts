import type { Operation, ParameterSpec } from '../contract/operations.js';
import { createAjv, type ErrorObject, type ValidateFunction } from '../contract/ajv.js';
import { bodySchema, parameterSchema, validatorKey } from '../contract/validator-schemas.js';
import { validationError, type FieldProblem } from '../errors/api-error.js';
import { closestName } from '../errors/closest-name.js';

export interface ValidatedParameters {
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  header: Record<string, unknown>;
}

/** Validators by `validatorKey`: those of bodies, and those of parameters (which coerce strings and fill defaults). */
export interface PrecompiledValidators {
  body: Record<string, ValidateFunction>;
  params: Record<string, ValidateFunction>;
}

interface OperationValidators {
  parameters: Record<ParameterSpec['in'], ValidateFunction>;
  /** Each location's parameters, by the name they are given and the name they are read under. */
  specs: Record<ParameterSpec['in'], ReadonlyArray<{ name: string; key: string }>>;
  body: ValidateFunction | null;
}

const LOCATIONS = ['path', 'query', 'header'] as const;

type RawValues = Readonly<Record<string, string | undefined>>;
/** The parameters of a location that has none. */
const NONE: Record<string, unknown> = Object.freeze({});

/**
 * Validates requests against the schemas of the OpenAPI documents. Validators are compiled
 * the first time an operation is called, so start-up costs nothing per operation.
 */
export class RequestValidator {
  /** Made only when an operation lacks a precompiled validator: building them costs tens of milliseconds at start. */
  private ajvs?: { body: ReturnType<typeof createAjv>; params: ReturnType<typeof createAjv> };
  private readonly compiled = new Map<Operation, OperationValidators>();

  /**
   * `precompiled`: validators generated at build time as standalone code (no `new Function`
   * at run time, which a strict Content-Security-Policy forbids; and a faster start). An
   * operation missing from them is compiled here, on first call.
   */
  constructor(
    private readonly documents: Record<Operation['documentId'], unknown>,
    private readonly precompiled?: PrecompiledValidators,
  ) {}

  /** The compilers: for bodies, and for path, query and header values, which arrive as strings and are coerced, defaults filled. */
  private compilers() {
    if (!this.ajvs) {
      this.ajvs = { body: createAjv(), params: createAjv({ coerceTypes: true }) };
      for (const [id, doc] of Object.entries(this.documents)) {
        this.ajvs.body.addSchema(doc as object, id);
        this.ajvs.params.addSchema(doc as object, id);
      }
    }
    return this.ajvs;
  }

  /** Each location's parameters, validated (coerced, defaults filled); a location without any is one shared, frozen empty object. */
  parameters(operation: Operation, path: RawValues, query: RawValues, header: RawValues): ValidatedParameters {
    const validators = this.validators(operation);
    let problems: FieldProblem[] | undefined;
    const out: ValidatedParameters = { path: NONE, query: NONE, header: NONE };
    for (const location of LOCATIONS) {
      const specs = validators.specs[location];
      if (specs.length === 0) continue;
      const value: Record<string, unknown> = {};
      const given = location === 'path' ? path : location === 'query' ? query : header;
      for (const spec of specs) {
        const v = given[spec.key];
        if (v !== undefined) value[spec.name] = v;
      }
      const validate = validators.parameters[location];
      if (!validate(value)) (problems ??= []).push(...toProblems(validate.errors ?? [], location, location === 'header'));
      out[location] = value;
    }
    if (problems !== undefined) throw validationError(problems);
    return out;
  }

  body(operation: Operation, body: unknown): void {
    const validate = this.validators(operation).body;
    if (validate && !validate(body)) throw validationError(toProblems(validate.errors ?? [], 'body', false, (path) => this.fieldsAt(operation, path)));
  }

  /**
   * The fields an object schema names, from an error's schemaPath: into the document
   * (`control#/components/schemas/X/additionalProperties`) or from the operation's body schema
   * (`#/properties/brief/additionalProperties`, as build-time validators say it).
   */
  private fieldsAt(operation: Operation, schemaPath: string): string[] | undefined {
    const [documentId, pointer = ''] = schemaPath.split('#');
    const document = this.documents[(documentId || operation.documentId) as Operation['documentId']];
    const deref = (node: unknown): unknown => {
      for (let hops = 0; hops < 10 && node && typeof (node as { $ref?: unknown }).$ref === 'string'; hops++) node = walk(document, ((node as { $ref: string }).$ref.split('#')[1] ?? '').split('/').slice(1));
      return node;
    };
    const walk = (from: unknown, steps: string[]): unknown => steps.reduce<unknown>((node, step) => (deref(node) as Record<string, unknown> | undefined)?.[step.replace(/~1/g, '/').replace(/~0/g, '~')], from);
    const start = documentId ? document : walk(document, (operation.bodySchemaPointer ?? '#').split('/').slice(1));
    const properties = (deref(walk(start, pointer.split('/').slice(1, -1))) as { properties?: object } | undefined)?.properties;
    return properties && typeof properties === 'object' ? Object.keys(properties) : undefined;
  }

  private validators(operation: Operation): OperationValidators {
    let v = this.compiled.get(operation);
    if (!v) {
      const pre = this.precompiled;
      const params = (location: ParameterSpec['in']): ValidateFunction =>
        pre?.params[validatorKey(operation, location)] ?? this.compilers().params.compile(parameterSchema(operation, location));
      const schema = bodySchema(operation);
      const specs = (location: ParameterSpec['in']) =>
        operation.parameters.filter((p) => p.in === location).map((p) => ({ name: p.name, key: location === 'header' ? p.name.toLowerCase() : p.name }));
      v = {
        parameters: { path: params('path'), query: params('query'), header: params('header') },
        specs: { path: specs('path'), query: specs('query'), header: specs('header') },
        body: schema ? (pre?.body[validatorKey(operation, 'body')] ?? this.compilers().body.compile(schema)) : null,
      };
      this.compiled.set(operation, v);
    }
    return v;
  }
}

/** Turns ajv's errors into `{ path, message }` entries a person can act on. */
export function toProblems(errors: ErrorObject[], root: string, lowerCaseNames: boolean, fieldsAt?: (schemaPath: string) => string[] | undefined): FieldProblem[] {
  const seen = new Set<string>();
  const problems: FieldProblem[] = [];
  // oneOf/anyOf summaries repeat what their branches already said.
  const useful = errors.filter((e) => e.keyword !== 'oneOf' && e.keyword !== 'anyOf' && e.keyword !== 'if');
  for (const e of useful.length > 0 ? useful : errors) {
    let path = root + e.instancePath.split('/').slice(1).map((p) => (/^\d+$/.test(p) ? `[${p}]` : `.${p}`)).join('');
    let message = e.message ?? 'is not valid';
    if (e.keyword === 'required') {
      path += `.${(e.params as { missingProperty: string }).missingProperty}`;
      message = 'is required';
    } else if (e.keyword === 'additionalProperties') {
      const field = (e.params as { additionalProperty: string }).additionalProperty;
      path += `.${field}`;
      message = unknownFieldMessage(field, fieldsAt?.(e.schemaPath));
    } else if (e.keyword === 'enum') {
      message = `must be one of: ${(e.params as { allowedValues: unknown[] }).allowedValues.join(', ')}`;
    } else if (e.keyword === 'const') {
      message = `must be ${JSON.stringify((e.params as { allowedValue: unknown }).allowedValue)}`;
    } else if (e.keyword === 'pattern' && root === 'body') {
      message = e.instancePath.endsWith('/objective') ? 'must not be blank' : message;
    }
    if (lowerCaseNames) path = path.toLowerCase();
    const id = `${path}\u0000${message}`;
    if (!seen.has(id)) {
      seen.add(id);
      problems.push({ path, message });
    }
  }
  return problems;
}

/** `is not a known field: did you mean status? (the fields are kind, status, …)`, when the schema names its fields. */
function unknownFieldMessage(field: string, known: string[] | undefined): string {
  if (!known || known.length === 0) return 'is not a known field';
  const guess = closestName(field, known);
  return `is not a known field${guess ? `: did you mean ${guess}?` : ''} (the fields are ${known.join(', ')})`;
}
