import type { Handle } from './tamper.js';
import { jsonOf, withJson } from './tamper.js';

/**
 * A service that differs from the simulator only where openapi.yaml infers (x-inferred):
 * other success and error statuses of the same class, other error codes for what the spec
 * gives no code, no inferred headers, further fields and headers. The `documented` level must
 * pass against it; it is what makes that level safe to point at the real service.
 */
export function legalVariant(handle: Handle): Handle {
  return (request) => {
    let res = handle(request);
    if (!request.url.startsWith('/api/')) return res;
    const headers: Record<string, string> = { ...res.headers, server: 'variant/1.0', 'x-request-id': 'req-1' };
    for (const inferred of ['x-correlation-id', 'location', 'retry-after', 'www-authenticate', 'content-disposition']) delete headers[inferred];
    res = { ...res, headers };
    const isJson = (res.headers['content-type'] ?? '').includes('json');
    if (!isJson) return res;
    const body = jsonOf(res);
    if (res.status === 201) return withJson(res, { ...body, extra: true }, 200);
    if (res.status === 200 && request.method === 'POST' && body.idempotent === true) return withJson(res, { ...body, extra: true }, 202);
    if (res.status === 400 && body.code === 'VALIDATION_ERROR') return withJson(res, { ...body, details: {} }, 422);
    if (res.status === 404) return withJson(res, { ...body, code: 'RESOURCE_NOT_FOUND' }, 410);
    if (res.status >= 200 && res.status < 300 && !Array.isArray(body)) return withJson(res, { ...body, extra: true });
    return res;
  };
}
