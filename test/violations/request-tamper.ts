import type { EngineRequest } from '../../src/engine/types.js';
import { is, recordAccounts, type Handle } from './tamper.js';

/** Tools that break a simulator on the request side: what it accepts, and whose data it finds. */

/** The request's JSON body, or undefined when it has none or it is not JSON. */
export function jsonBody(req: EngineRequest): any {
  try {
    return req.body ? JSON.parse(new TextDecoder().decode(req.body)) : undefined;
  } catch {
    return undefined;
  }
}

export function withBody(req: EngineRequest, json: unknown): EngineRequest {
  const body = new TextEncoder().encode(JSON.stringify(json));
  return { ...req, body, headers: { ...req.headers, 'content-length': String(body.byteLength) } };
}

export function withAuthorization(req: EngineRequest, authorization: string | undefined): EngineRequest {
  const headers = { ...req.headers };
  if (authorization === undefined) delete headers.authorization;
  else headers.authorization = authorization;
  return { ...req, headers };
}

/** Rewrites the Authorization header (undefined when absent) before the simulator sees it. */
export function rewriteAuthorization(h: Handle, rewrite: (authorization: string | undefined, req: EngineRequest) => string | undefined): Handle {
  return (req) => h(withAuthorization(req, rewrite(req.headers.authorization, req)));
}

/** Takes a query parameter out of the requests that match, as a server that ignores it would. */
export function dropQuery(h: Handle, method: string, route: RegExp, name: string): Handle {
  return (req) => {
    if (!is(req, method, route)) return h(req);
    const [path, query = ''] = req.url.split('?') as [string, string?];
    const params = new URLSearchParams(query);
    params.delete(name);
    const rest = params.toString();
    return h({ ...req, url: rest ? `${path}?${rest}` : path });
  };
}

/** Fills in a body field the client left out, as a server that treats a required field as optional would. */
export function defaultField(h: Handle, method: string, route: RegExp, field: string, value: unknown): Handle {
  return (req) => {
    const body = is(req, method, route) ? jsonBody(req) : undefined;
    if (!body || typeof body !== 'object' || field in body) return h(req);
    return h(withBody(req, { ...body, [field]: value }));
  };
}

/** Takes a body field out of the requests that match, as a server that ignores it would. */
export function dropField(h: Handle, method: string, route: RegExp, field: string): Handle {
  return (req) => {
    const body = is(req, method, route) ? jsonBody(req) : undefined;
    if (!body || typeof body !== 'object' || !(field in body)) return h(req);
    const { [field]: _, ...rest } = body;
    return h(withBody(req, rest));
  };
}

/** Sets a body field of the requests that match, whatever the client sent. */
export function forceField(h: Handle, method: string, route: RegExp, field: string, value: unknown): Handle {
  return (req) => {
    const body = is(req, method, route) ? jsonBody(req) : undefined;
    return body && typeof body === 'object' ? h(withBody(req, { ...body, [field]: value })) : h(req);
  };
}

/**
 * A server that finds resources without their owner: a request that would get 404 is tried
 * again with each other account's key, and the first answer that is not a 404 is returned.
 */
export function leaky(h: Handle, method: string, route: RegExp): Handle {
  const accounts: Array<Record<string, string>> = [];
  const inner = recordAccounts(h, accounts);
  return (req) => {
    const res = inner(req);
    if (res.status !== 404 || !is(req, method, route)) return res;
    const presented = req.headers.authorization?.replace(/^Bearer\s+/i, '');
    for (const keys of accounts) {
      if (Object.values(keys).includes(presented ?? '')) continue;
      const other = inner(withAuthorization(req, `Bearer ${keys.readWrite}`));
      if (other.status !== 404) return other;
    }
    return res;
  };
}

/** Keys of the accounts the suite created, so that a violation can swap one for another. */
export function withAccounts(h: Handle, use: (inner: Handle, accounts: Array<Record<string, string>>) => Handle): Handle {
  const accounts: Array<Record<string, string>> = [];
  return use(recordAccounts(h, accounts), accounts);
}
