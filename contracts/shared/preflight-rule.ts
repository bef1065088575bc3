import type { ObservedResponse, Violation } from './observed-response.js';

/** A CORS preflight (OPTIONS with Access-Control-Request-Method): 204 and open to the origin, except the control API's, which are refused. */
export function preflightViolations(observed: ObservedResponse, headers: Record<string, string>): Violation[] {
  if (/^\/_sim(\/|$|\?)/.test(observed.url)) {
    // The simulator's control API is never CORS-open: its preflights are refused.
    const refused = observed.status >= 400 && headers['access-control-allow-origin'] === undefined;
    return refused ? [] : [{ operation: '(preflight)', status: observed.status, rule: 'cors', message: 'a preflight to /_sim must be refused, with no Access-Control-Allow-Origin' }];
  }
  const ok = observed.status === 204 && headers['access-control-allow-origin'] !== undefined;
  return ok ? [] : [{ operation: '(preflight)', status: observed.status, rule: 'cors', message: 'a CORS preflight must get 204 with Access-Control-Allow-Origin' }];
}
