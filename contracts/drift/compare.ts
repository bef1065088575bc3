import type { OperationInfo } from '../shared/openapi-model.js';
import { DRIFT_RULES, type Drift, type DriftRule } from './rules.js';
import type { ResponseSchemas } from './schema-walk.js';

type Json = Record<string, any>;

/** One answer as a replay compares it: headers in lower case, the body as text and, when it is JSON (or JSON-RPC over SSE), parsed. */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  text: string | undefined;
  json: unknown;
}

export interface CallContext {
  call: number;
  method: string;
  url: string;
  operation: OperationInfo | undefined;
}

/** Headers whose value is fixed by the contract for a given call, so a different value is drift. */
const FIXED_VALUE_HEADERS = new Set(['x-ratelimit-limit']);

/** A body as JSON: a JSON document, or the last message of a server-sent event stream (an MCP answer). */
export function parseBody(text: string | undefined, contentType: string): unknown {
  if (!text) return undefined;
  try {
    if (contentType.includes('json')) return JSON.parse(text);
    if (contentType.includes('event-stream')) {
      const data = text.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim()).filter((l) => l.startsWith('{'));
      return data.length ? JSON.parse(data[data.length - 1] as string) : undefined;
    }
  } catch {
    return undefined; // a body cut short (a journal's 4 KiB) is compared by its status and headers only
  }
  return undefined;
}

/** The error code an answer carries: `code` of a REST error, or of an MCP tool result marked isError. */
export function errorCodeOf(answer: Answer): string | undefined {
  const j = answer.json as Json | undefined;
  if (!j || typeof j !== 'object') return undefined;
  if (answer.status >= 400 && typeof j.code === 'string') return j.code;
  if (j.jsonrpc && j.result?.isError === true && typeof j.result?.structuredContent?.code === 'string') return j.result.structuredContent.code;
  if (j.jsonrpc && typeof j.error?.code === 'number') return `JSON-RPC ${j.error.code}`;
  return undefined;
}

/**
 * The differences between a recorded answer and the replayed one, at the level that can be
 * expected to match. A different status is the one difference reported for the call (the
 * bodies of two statuses differ by design); the error code is compared alongside it.
 */
export function compareAnswers(ctx: CallContext, recorded: Answer, replayed: Answer, schemas: ResponseSchemas, documentedHeaders: ReadonlySet<string>, paced = true): Drift[] {
  const out: Drift[] = [];
  const add = (rule: DriftRule, field: string | undefined, rec: unknown, rep: unknown, why: string) =>
    out.push({ call: ctx.call, method: ctx.method, url: ctx.url, ...(ctx.operation ? { operationId: ctx.operation.id } : {}), rule, ...(field !== undefined ? { field } : {}), recorded: rec, replayed: rep, explanation: why });
  const recCode = errorCodeOf(recorded);
  const repCode = errorCodeOf(replayed);
  if (recorded.status !== replayed.status) add('status', undefined, recorded.status, replayed.status, `${DRIFT_RULES.status}: the recording got ${recorded.status}, the target answers ${replayed.status}`);
  if (recCode !== repCode && (recCode !== undefined || repCode !== undefined)) {
    add('errorCode', 'code', recCode ?? null, repCode ?? null, `${DRIFT_RULES.errorCode}: a client that branches on ${recCode ?? 'success'} meets ${repCode ?? 'success'}`);
  }
  if (recorded.status !== replayed.status) return out;

  const recType = mediaType(recorded.headers['content-type']);
  const repType = mediaType(replayed.headers['content-type']);
  if (recType !== repType && recType && repType) add('contentType', 'content-type', recType, repType, `${DRIFT_RULES.contentType}: a client parses ${recType}, the target sends ${repType}`);
  compareHeaders(recorded, replayed, new Set([...documentedHeaders, ...schemas.headers(ctx.operation, recorded.status)]), add, paced);
  if (recorded.json !== undefined && replayed.json !== undefined) {
    const root = schemas.bodySchemas(ctx.operation, recorded.status);
    new ShapeWalk(schemas, add, recCode !== undefined).compare(recorded.json, replayed.json, '', root, false);
  }
  return out;
}

type Add = (rule: DriftRule, field: string | undefined, rec: unknown, rep: unknown, why: string) => void;

/**
 * Documented headers: present on both sides or on neither. The limit in force is compared too when
 * the replay is paced as the recording was (on the simulator, whose clock it moves): the headers
 * describe the tightest bucket, and which one that is depends on how fast the calls came.
 */
function compareHeaders(recorded: Answer, replayed: Answer, documented: ReadonlySet<string>, add: Add, paced: boolean): void {
  for (const name of documented) {
    if (name === 'content-type') continue;
    const rec = recorded.headers[name];
    const rep = replayed.headers[name];
    if (rec !== undefined && rep === undefined) add('headerMissing', name, rec, null, `${DRIFT_RULES.headerMissing}: the recording's answer carried ${name}`);
    else if (rec === undefined && rep !== undefined) add('headerAdded', name, null, rep, `${DRIFT_RULES.headerAdded}: the recording's answer had no ${name}`);
    else if (paced && rec !== undefined && rep !== undefined && FIXED_VALUE_HEADERS.has(name) && rec !== rep) add('headerValue', name, rec, rep, `${DRIFT_RULES.headerValue}: the limit in force differs`);
  }
}

function mediaType(value: string | undefined): string {
  return (value ?? '').split(';')[0]!.trim().toLowerCase();
}

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

/** Walks two JSON values side by side: field sets, types, enumerated values. */
class ShapeWalk {
  constructor(
    private readonly schemas: ResponseSchemas,
    private readonly add: Add,
    private readonly isError: boolean,
  ) {}

  compare(rec: unknown, rep: unknown, path: string, schemas: Json[], stateDiffers: boolean): void {
    // null stands for "not yet" (completedAt, failure): a nullable field is compared when both sides have a value.
    if (rec === null || rep === null || rec === undefined || rep === undefined) return;
    const rt = typeOf(rec);
    const pt = typeOf(rep);
    if (rt !== pt) {
      this.add('fieldType', path || '(body)', rt, pt, `${DRIFT_RULES.fieldType}: ${path || 'the body'} was ${rt}, is ${pt}`);
      return;
    }
    if (rt === 'array') return this.compareArrays(rec as unknown[], rep as unknown[], path, schemas, stateDiffers);
    if (rt === 'object') return this.compareObjects(rec as Json, rep as Json, path, schemas, stateDiffers);
    if (rt === 'string' && rec !== rep && !stateDiffers && this.schemas.isEnumerated(schemas) && !(this.isError && path === 'code')) {
      // Items of a list (a deliverable's claims, sources) come from generated content, which differs by design:
      // there only a value the contract does not list, where the recording's was listed, is drift.
      const listed = this.schemas.enumValues(schemas);
      if (path.includes('[]') && (listed.has(rep) || !listed.has(rec))) return;
      this.add('enumValue', path, rec, rep, `${DRIFT_RULES.enumValue}: ${path} was ${JSON.stringify(rec)}, is ${JSON.stringify(rep)}`);
    }
  }

  private compareObjects(rec: Json, rep: Json, path: string, schemas: Json[], inherited: boolean): void {
    // A resource in another state than recorded (a build polled at another point of its pipeline) may
    // carry the fields of that state: only the fields both sides have are compared under it.
    const stateDiffers = inherited || (typeof rec.status === 'string' && typeof rep.status === 'string' && rec.status !== rep.status);
    const at = (key: string) => (path ? `${path}.${key}` : key);
    if (!stateDiffers) {
      for (const key of Object.keys(rec)) if (!(key in rep)) this.add('fieldMissing', at(key), typeOf(rec[key]), null, `${DRIFT_RULES.fieldMissing}: ${at(key)}`);
      for (const key of Object.keys(rep)) if (!(key in rec)) this.add('fieldAdded', at(key), null, typeOf(rep[key]), `${DRIFT_RULES.fieldAdded}: ${at(key)}`);
    }
    for (const key of Object.keys(rec)) {
      if (key in rep) this.compare(rec[key], rep[key], at(key), this.schemas.child(schemas, key), stateDiffers);
    }
  }

  private compareArrays(rec: unknown[], rep: unknown[], path: string, schemas: Json[], stateDiffers: boolean): void {
    // Lengths are counts, which differ by design; the items both sides have are compared in order.
    const items = this.schemas.child(schemas, '[]');
    for (let i = 0; i < Math.min(rec.length, rep.length); i++) this.compare(rec[i], rep[i], `${path}[]`, items, stateDiffers);
  }
}

/** Drops the repeats of a drift already reported at the same call (an array's items share one path). */
export function distinct(drifts: Drift[]): Drift[] {
  const seen = new Set<string>();
  return drifts.filter((d) => {
    const key = `${d.call}\n${d.rule}\n${d.field ?? ''}\n${JSON.stringify(d.recorded)}\n${JSON.stringify(d.replayed)}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
