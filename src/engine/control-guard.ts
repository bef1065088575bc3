import { constantTimeEqual } from '../credentials/constant-time.js';
import type { EngineRequest } from './types.js';
import { ApiError } from '../errors/api-error.js';
import { YAML_TYPES } from '../contract/operations.js';

/**
 * Who may reach `/_sim`: with a control token configured, whoever sends it in
 * `X-Control-Token`; without one, loopback clients only (in-process callers have no address
 * and are local), addressed by a loopback name or the simulator's own (`Host`): a web page
 * whose domain an attacker rebinds to 127.0.0.1 is same-origin for the browser, but its
 * requests name the attacker's host. Writes must be JSON: a browser cannot send that
 * cross-origin without a preflight, and preflights to `/_sim` are refused, so no web page of
 * another origin can drive the simulator.
 */
export function guardControl(request: EngineRequest, method: string, controlToken: string | undefined, ownHostname = 'localhost'): void {
  if (controlToken !== undefined) {
    const sent = request.headers['x-control-token'];
    if (typeof sent !== 'string' || !constantTimeEqual(sent, controlToken)) {
      throw new ApiError(401, 'UNAUTHORIZED', 'The control API needs the control token in X-Control-Token.', {});
    }
  } else if (request.remoteAddress !== undefined && !isLoopback(request.remoteAddress)) {
    throw new ApiError(403, 'FORBIDDEN', 'The control API answers loopback clients only; start the simulator with --control-token to reach it from elsewhere.', {});
  } else if (request.remoteAddress !== undefined && !isLocalHostHeader(request.headers.host, ownHostname)) {
    throw new ApiError(403, 'FORBIDDEN', `The control API answers requests addressed to 127.0.0.1, localhost, [::1] or ${ownHostname}, not to ${String(request.headers.host)}.`, {});
  }
  if (method === 'POST') {
    const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
    // YAML (a scenario) needs a preflight from a web page as JSON does: neither is a type a form can send.
    if (type !== 'application/json' && !YAML_TYPES.includes(type ?? '')) {
      throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Control calls are JSON: send "Content-Type: application/json" (with {} when there is nothing to say); a scenario may be YAML too.', {
        received: request.headers['content-type'] ?? null,
      });
    }
  }
}

/** A Host header naming this machine (any port): what no rebound domain can send. Absent (HTTP/1.0): allowed. */
function isLocalHostHeader(host: string | undefined, ownHostname: string): boolean {
  if (host === undefined) return true;
  const name = (host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0] ?? '').toLowerCase();
  return name === 'localhost' || name.endsWith('.localhost') || name === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(name) || name === ownHostname.toLowerCase();
}

export function isLoopback(address: string): boolean {
  const plain = address.startsWith('::ffff:') ? address.slice(7) : address;
  // The usual address first: no regular expression for it on every request.
  return plain === '127.0.0.1' || plain === '::1' || plain === 'localhost' || /^127\.\d+\.\d+\.\d+$/.test(plain);
}
