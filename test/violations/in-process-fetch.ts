import type { EngineRequest } from '../../src/engine/types.js';

type Answer = { status: number; headers: Record<string, string>; body: string | Uint8Array; later?: Promise<Answer> };
type Handle = (request: EngineRequest) => Answer;

/**
 * A fetch that hands each request to a simulator's `handle` in this process, with no socket:
 * the contract suite stays a black-box HTTP client, only much faster.
 */
export function inProcessFetch(handle: Handle): (input: string, init?: RequestInit) => Promise<Response> {
  return async (input, init = {}) => {
    const url = new URL(input);
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => (headers[name] = value));
    const request: EngineRequest = { method: (init.method ?? 'GET').toUpperCase(), url: `${url.pathname}${url.search}`, headers };
    if (init.body !== undefined && init.body !== null) {
      request.body = typeof init.body === 'string' ? new TextEncoder().encode(init.body) : new Uint8Array(await new Response(init.body).arrayBuffer());
      headers['content-length'] = String(request.body.byteLength);
    }
    const first = handle(request);
    // An answer that comes later (a scenario loaded in slices) is the one a client receives.
    const response = first.later ? await first.later : first;
    const status = response.status;
    const body = status === 204 || status === 304 ? null : response.body;
    return new Response(body as BodyInit | null, { status, headers: response.headers });
  };
}
