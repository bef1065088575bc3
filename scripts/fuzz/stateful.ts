import type { FuzzRequest, Operation } from './operations.js';

/** A request that follows a successful one, and what its status must be. */
export interface FollowUp {
  check: 'resource-availability' | 'use-after-free';
  request: FuzzRequest;
  operation: Operation;
  /** Undefined when the answer is as it should be, else what is wrong. */
  judge(status: number, body: string): string | undefined;
}

/**
 * Schemathesis's stateful checks, read from the paths: what a POST created can be read at
 * once at `<collection>/{id}` (resource availability), and what a DELETE removed is gone
 * from the same path (use after free), unless the resource is kept with a `revoked` status
 * (keys and shares are revoked, not erased).
 */
export function followUps(op: Operation, req: FuzzRequest, status: number, body: string, operations: Operation[]): FollowUp[] {
  if (status >= 300) return [];
  const getAt = (template: string) => operations.find((o) => o.method === 'GET' && o.template === template);
  const headers: Record<string, string> = req.headers.authorization ? { authorization: req.headers.authorization } : {};
  const base = { mode: 'positive' as const, method: 'GET', headers };
  if (op.method === 'POST' && status === 201) {
    const id = idOf(body);
    const read = operations.find((o) => o.method === 'GET' && o.template.startsWith(`${op.template}/{`) && o.template.split('/').length === op.template.split('/').length + 1);
    const path = req.path.split('?')[0]!;
    if (!id || !read) return [];
    return [
      {
        check: 'resource-availability',
        operation: read,
        request: { ...base, operation: read.id, path: `${path}/${encodeURIComponent(id)}` },
        judge: (s) => (s === 200 ? undefined : `${op.id} answered 201 with id ${id}, then ${read.id} answered ${s}`),
      },
    ];
  }
  // Deleting one item (its path ends in its id), not clearing a whole collection.
  if (op.method === 'DELETE' && op.template.endsWith('}')) {
    const read = getAt(op.template);
    if (!read) return [];
    return [
      {
        check: 'use-after-free',
        operation: read,
        request: { ...base, operation: read.id, path: req.path.split('?')[0]! },
        judge: (s, text) => (s === 404 || (s === 200 && /"status":"revoked"/.test(text)) ? undefined : `${op.id} answered ${status}, then ${read.id} answered ${s}`),
      },
    ];
  }
  return [];
}

function idOf(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as { id?: unknown };
    return typeof parsed.id === 'string' ? parsed.id : undefined;
  } catch {
    return undefined;
  }
}
