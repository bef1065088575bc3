import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

type Json = Record<string, any>;

/**
 * The package's root: the nearest folder above this file that holds openapi.yaml. The same
 * code runs from the sources (contracts/shared) and compiled in the package (dist/contracts/shared).
 */
function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'openapi.yaml'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('openapi.yaml is not in any folder above the contract suite');
    dir = parent;
  }
  return dir;
}

const root = packageRoot();

const parsed = new Map<string, Json>();

/** Where the build leaves the package's contracts already parsed, keyed by the SHA-256 of their text. */
export const PARSED_CONTRACTS_FILE = 'contract-documents.json';
let twins: Record<string, Json> | undefined;

/**
 * A contract file, parsed once per run. Parsing the YAML is the slowest step of a start (about
 * a quarter of a second), so the build leaves the package's own documents parsed as JSON
 * beside the compiled suite: a file whose text hashes to one of them is read from there, any
 * other (an edited contract, CONTRACT_OPENAPI) is parsed as YAML. Do not mutate.
 */
export function readContractDocument(file: string): Json {
  let doc = parsed.get(file);
  if (!doc) {
    const text = readFileSync(file, 'utf8');
    doc = parsedTwins()[createHash('sha256').update(text).digest('hex')] ?? (parse(text) as Json);
    parsed.set(file, doc);
  }
  return doc;
}

function parsedTwins(): Record<string, Json> {
  if (!twins) {
    const path = join(dirname(fileURLToPath(import.meta.url)), PARSED_CONTRACTS_FILE);
    twins = existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as Record<string, Json>) : {};
  }
  return twins;
}

/** The contract files of this package, unless CONTRACT_OPENAPI names another service contract. */
export const CONTRACT_FILES = {
  service: process.env.CONTRACT_OPENAPI ?? join(root, 'openapi.yaml'),
  control: join(root, 'simulator-control.yaml'),
};

/** Spec, Limits: requests a minute per key by route class, and per user. */
export const CLASS_LIMITS: Readonly<Record<string, number>> = { default: 60, 'build-create': 10, generation: 20 };
export const USER_LIMIT = 120;

export interface ParameterInfo {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  inferred: boolean;
  schema: Json;
}

/** What the suite needs to know of one operation of openapi.yaml, read at run time. */
export interface OperationInfo {
  id: string;
  method: string;
  /** The path template, e.g. `/api/v1/builds/{buildId}`. */
  path: string;
  /** `svc:read`, `svc:write`, or null for a public operation (`security: []`). */
  scope: 'svc:read' | 'svc:write' | null;
  rateClass: string;
  inferred: boolean;
  parameters: ParameterInfo[];
  hasBody: boolean;
  statuses: string[];
}

export function readOperations(file = CONTRACT_FILES.service): OperationInfo[] {
  const doc = readContractDocument(file);
  const deref = (node: Json): Json => {
    let current = node;
    while (current && typeof current.$ref === 'string') {
      current = current.$ref
        .replace(/^#\//, '')
        .split('/')
        .reduce((n: Json, part: string) => n[part.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
    }
    return current;
  };
  const operations: OperationInfo[] = [];
  for (const [path, item] of Object.entries(doc.paths as Json)) {
    const shared = ((item as Json).parameters ?? []) as Json[];
    for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
      const op = (item as Json)[method] as Json | undefined;
      if (!op) continue;
      const parameters = [...shared, ...((op.parameters ?? []) as Json[])].map(deref).map(
        (p): ParameterInfo => ({ name: p.name, in: p.in, required: p.required === true, inferred: p['x-inferred'] === true, schema: deref(p.schema ?? {}) }),
      );
      const isPublic = Array.isArray(op.security) && op.security.length === 0;
      operations.push({
        id: op.operationId,
        method: method.toUpperCase(),
        path,
        scope: isPublic ? null : (op['x-required-scope'] ?? 'svc:read'),
        rateClass: op['x-rate-limit-class'] ?? 'default',
        inferred: op['x-inferred'] === true,
        parameters,
        hasBody: op.requestBody !== undefined,
        statuses: Object.keys(op.responses ?? {}),
      });
    }
  }
  return operations;
}

export function pathParameters(op: OperationInfo): ParameterInfo[] {
  return op.parameters.filter((p) => p.in === 'path');
}

/** The concrete path of an operation with its parameters filled in. */
export function fillPath(op: OperationInfo, values: Record<string, string>): string {
  return op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no value for path parameter ${name} of ${op.id}`);
    return encodeURIComponent(value);
  });
}

/** A value a parameter's schema accepts, for calls whose outcome does not depend on it. */
export function sampleValue(schema: Json, random: () => string): string {
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return String(schema.enum[0]);
  if (schema.format === 'uuid') return random();
  if (schema.type === 'integer' || schema.type === 'number') return String(schema.minimum ?? 1);
  if (schema.type === 'boolean') return 'true';
  return random().replace(/-/g, '');
}
