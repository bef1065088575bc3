/** The objects of the service's answers a scene is made of, told apart by their shape (openapi.yaml's schemas). */
export type SeenKind = 'target' | 'library' | 'build' | 'deliverable' | 'share' | 'audio' | 'image' | 'key' | 'chat' | 'transaction' | 'balance';

export interface Seen {
  kind: SeenKind;
  id: string;
  /** The object's fields as last answered (merged over earlier answers). */
  fields: Record<string, unknown>;
  /** A build's request body, when the recording holds its POST /api/v1/builds. */
  request?: Record<string, unknown>;
  /** The call that last showed it, and the service's time then. */
  call: number;
  at: number;
  firstCall: number;
}

type Json = Record<string, unknown>;

const has = (o: Json, ...keys: string[]) => keys.every((k) => k in o);

/** The kind of one answered object, by the fields its schema requires. */
export function kindOf(o: Json): SeenKind | undefined {
  if (has(o, 'balance', 'lifetimeUsed')) return 'balance';
  if (typeof o.id !== 'string') return undefined;
  if (has(o, 'buildType', 'kind', 'status', 'stages')) return 'build';
  if (has(o, 'slug', 'brandKit')) return 'target';
  if (has(o, 'balanceAfter', 'amount')) return 'transaction';
  if (has(o, 'deliverableId', 'token', 'url')) return 'share';
  if (has(o, 'deliverableId', 'voice', 'durationSeconds')) return 'audio';
  if (has(o, 'buildId', 'pageIndex', 'kind')) return 'deliverable';
  if (has(o, 'prompt', 'fileUrl', 'size')) return 'image';
  if (has(o, 'hint', 'scopes', 'status')) return 'key';
  if (has(o, 'targetId', 'type', 'content', 'name')) return 'library';
  if (has(o, 'targetId', 'messages') || (has(o, 'targetId', 'title') && !('kind' in o))) return 'chat';
  return undefined;
}

export interface CallContext {
  call: number;
  at: number;
  method: string;
  path: string;
  /** POST /api/v1/builds's body, when this is that call. */
  request?: unknown;
}

/**
 * Every object an answer shows, outermost first: a build and its deliverables (GET
 * /api/v1/builds/{id}), a list's items, a purchase's balance, a made build's id (its request
 * body then holds what it was asked to be).
 */
export function classify(json: unknown, ctx: CallContext): Seen[] {
  const out: Seen[] = [];
  const base = { call: ctx.call, at: ctx.at, firstCall: ctx.call };
  const visit = (value: unknown, depth: number) => {
    if (depth > 3 || !value || typeof value !== 'object') return;
    if (Array.isArray(value)) return value.forEach((v) => visit(v, depth + 1));
    const o = value as Json;
    const kind = kindOf(o);
    if (kind) return void out.push({ kind, id: kind === 'balance' ? 'balance' : (o.id as string), fields: o, ...base });
    for (const v of Object.values(o)) if (typeof v === 'object') visit(v, depth + 1);
  };
  visit(json, 0);
  const made = json as { buildId?: unknown; correlationId?: unknown } | undefined;
  if (ctx.request && typeof made?.buildId === 'string' && !('build' in (made as object))) {
    out.push({ kind: 'build', id: made.buildId, fields: { id: made.buildId }, request: ctx.request as Json, ...base });
  }
  return out;
}
