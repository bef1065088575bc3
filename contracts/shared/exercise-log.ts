import type { OperationInfo } from './openapi-model.js';

/** What one operation was called with and answered, over a run. */
export interface OperationExercise {
  calls: number;
  statuses: Set<number>;
  /** `query.limit`, `header.idempotency-key`, `body.kind` → the values sent (enum-like values only, else one marker). */
  parameters: Map<string, Set<string>>;
  errorCodes: Set<string>;
}

export interface Exchange {
  operation: OperationInfo | undefined;
  url: string;
  requestHeaders: Record<string, string>;
  /** The request body as text, when it was JSON. */
  requestBody?: string;
  status: number;
  responseBody?: string;
  responseContentType?: string;
}

/** A marker for a value that is not worth listing (an id, free text). */
const ANY = '*';

/**
 * A log of what a run exercised, per operation: statuses, parameters (query, header, body
 * fields) with the values of those that take few, and error codes. Fed by the suite's client
 * and by the validation proxy alike.
 */
export class ExerciseLog {
  readonly operations = new Map<string, OperationExercise>();
  unmatched = 0;
  /** Error codes of requests that matched no operation (an unknown path, a method a path lacks). */
  readonly unmatchedErrorCodes = new Set<string>();

  record(x: Exchange): void {
    if (!x.operation) {
      this.unmatched++;
      const code = x.status >= 400 ? (parseJson(x.responseBody) as { code?: unknown } | undefined)?.code : undefined;
      if (typeof code === 'string') this.unmatchedErrorCodes.add(code);
      return;
    }
    const op = x.operation;
    const entry = this.entry(op.id);
    entry.calls++;
    entry.statuses.add(x.status);
    const query = new URLSearchParams(x.url.split('?')[1] ?? '');
    for (const p of op.parameters) {
      if (p.in === 'query' && query.has(p.name)) this.param(entry, `query.${p.name}`, Array.isArray(p.schema.enum) ? String(query.get(p.name)) : ANY);
      if (p.in === 'header' && x.requestHeaders[p.name.toLowerCase()] !== undefined) this.param(entry, `header.${p.name.toLowerCase()}`, ANY);
    }
    const body = parseJson(x.requestBody);
    if (body && typeof body === 'object' && !Array.isArray(body)) {
      for (const [field, value] of Object.entries(body)) this.param(entry, `body.${field}`, typeof value === 'string' && value.length <= 32 && /^[a-z0-9_:.-]+$/i.test(value) ? value : ANY);
    }
    if (x.status >= 400 && (x.responseContentType ?? '').includes('json')) {
      const code = (parseJson(x.responseBody) as { code?: unknown } | undefined)?.code;
      if (typeof code === 'string') entry.errorCodes.add(code);
    }
  }

  private entry(id: string): OperationExercise {
    let entry = this.operations.get(id);
    if (!entry) {
      entry = { calls: 0, statuses: new Set(), parameters: new Map(), errorCodes: new Set() };
      this.operations.set(id, entry);
    }
    return entry;
  }

  private param(entry: OperationExercise, name: string, value: string): void {
    const values = entry.parameters.get(name) ?? new Set<string>();
    values.add(value);
    entry.parameters.set(name, values);
  }
}

function parseJson(text: string | undefined): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The operation of openapi.yaml a method and path stand for: the one with the most literal segments. */
export function matchOperation(operations: readonly OperationInfo[], method: string, url: string): OperationInfo | undefined {
  const parts = url.split('?')[0]!.split('/');
  const candidates = operations.filter((o) => {
    const segments = o.path.split('/');
    return o.method === method.toUpperCase() && segments.length === parts.length && segments.every((s, i) => s.startsWith('{') || s === parts[i]);
  });
  const literal = (o: OperationInfo) => o.path.split('/').filter((s) => s && !s.startsWith('{')).length;
  return candidates.sort((a, b) => literal(b) - literal(a))[0];
}
