import type { EngineRequest } from './types.js';

const ABSOLUTE = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i;

/**
 * A request whose url is absolute (`https://api.example.com/api/v1/…`, what fetch and msw
 * hand around) in the origin form the engine routes (`/api/v1/…`): the scheme and host are
 * dropped, the path and query kept. An origin-form url is returned as it is.
 */
export function toOriginForm(request: EngineRequest): EngineRequest {
  const origin = ABSOLUTE.exec(request.url);
  if (!origin) return request;
  const rest = request.url.slice(origin[0].length).replace(/#.*$/, '');
  return { ...request, url: rest.startsWith('/') ? rest : `/${rest}` };
}
