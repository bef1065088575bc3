import { ApiError } from '../errors/api-error.js';
import type { Operation } from '../contract/operations.js';

export interface RouteMatch {
  operation: Operation;
  pathParams: Record<string, string>;
}

export type RouteResult =
  | { kind: 'match'; match: RouteMatch }
  /** `public`: every method of the path needs no credential, so a wrong one is refused before any. */
  | { kind: 'method-not-allowed'; allow: string[]; public: boolean }
  | { kind: 'not-found' };

interface CompiledPath {
  segments: Array<string | { param: string }>;
  byMethod: Map<string, Operation>;
}

/** Matches a method and path to an operation; templates are compared segment by segment. */
export class Router {
  /** Static paths resolve with one map lookup; templated ones are grouped by segment count. */
  private readonly staticPaths = new Map<string, CompiledPath>();
  private readonly templated = new Map<number, CompiledPath[]>();

  constructor(operations: readonly Operation[]) {
    const byTemplate = new Map<string, CompiledPath>();
    for (const op of operations) {
      let compiled = byTemplate.get(op.template);
      if (!compiled) {
        const segments = op.template.split('/').slice(1).map((s) => (s.startsWith('{') ? { param: s.slice(1, -1) } : s));
        compiled = { segments, byMethod: new Map() };
        byTemplate.set(op.template, compiled);
        if (segments.every((s) => typeof s === 'string')) this.staticPaths.set(op.template, compiled);
        else {
          const group = this.templated.get(segments.length) ?? [];
          group.push(compiled);
          this.templated.set(segments.length, group);
        }
      }
      compiled.byMethod.set(op.method, op);
    }
  }

  route(method: string, path: string): RouteResult {
    const normalized = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
    const exact = this.staticPaths.get(normalized);
    if (exact) return this.pick(exact, method, {});
    const candidates = this.templated.get(segmentCount(normalized));
    if (candidates === undefined) return { kind: 'not-found' };
    for (const compiled of candidates) {
      const params = matchSegments(compiled.segments, normalized);
      if (params) return this.pick(compiled, method, params);
    }
    return { kind: 'not-found' };
  }

  private pick(compiled: CompiledPath, method: string, pathParams: Record<string, string>): RouteResult {
    const operation = compiled.byMethod.get(method) ?? (method === 'HEAD' ? compiled.byMethod.get('GET') : undefined);
    if (operation) return { kind: 'match', match: { operation, pathParams } };
    const operations = [...compiled.byMethod.values()];
    return { kind: 'method-not-allowed', allow: [...compiled.byMethod.keys()], public: operations.every((op) => op.scope === null) };
  }
}

/** How many segments a path has: its slashes (a path starts with one). No array is made. */
function segmentCount(path: string): number {
  let count = 0;
  for (let i = 0; i < path.length; i++) if (path.charCodeAt(i) === 0x2f) count++;
  return count;
}

/** Matches a path of as many segments against a template, walking the path in place; its parameters, or null. */
function matchSegments(segments: CompiledPath['segments'], path: string): Record<string, string> | null {
  const params: Record<string, string> = {};
  let start = path.indexOf('/') + 1;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i] as CompiledPath['segments'][number];
    let end = path.indexOf('/', start);
    if (end === -1) end = path.length;
    if (typeof segment === 'string') {
      if (end - start !== segment.length || !path.startsWith(segment, start)) return null;
    } else {
      if (end === start) return null;
      params[segment.param] = safeDecode(path.slice(start, end));
    }
    start = end + 1;
  }
  return params;
}

function safeDecode(part: string): string {
  if (!part.includes('%')) return part; // nothing to decode: the common case, without a try
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** The 405 every surface answers for a known path with a wrong method, with its Allow header. */
export function methodNotAllowed(method: string, path: string, allow: string[]): ApiError {
  return new ApiError(405, 'METHOD_NOT_ALLOWED', `${method} is not allowed on ${path}.`, { allow }, { allow: allow.join(', ') });
}
