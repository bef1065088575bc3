import { constantTimeEqual } from '../auth/api-key.js';
import type { EngineRequest } from './types.js';
import { ApiError } from './api-error.js';

/**
 * Who may reach `/_sim`: with a control token configured, whoever sends it in
 * `X-Control-Token`; without one, loopback clients only (in-process callers have no address
 * and are local). Writes must be JSON: a browser cannot send that cross-origin without a
 * preflight, and preflights to `/_sim` are refused, so no web page can drive the simulator.
 */
export function guardControl(request: EngineRequest, method: string, controlToken: string | undefined): void {
  if (controlToken !== undefined) {
    const sent = request.headers['x-control-token'];
    if (typeof sent !== 'string' || !constantTimeEqual(sent, controlToken)) {
      throw new ApiError(401, 'UNAUTHORIZED', 'The control API needs the control token in X-Control-Token.', {});
    }
  } else if (request.remoteAddress !== undefined && !isLoopback(request.remoteAddress)) {
    throw new ApiError(403, 'FORBIDDEN', 'The control API answers loopback clients only; start the simulator with --control-token to reach it from elsewhere.', {});
  }
  if (method === 'POST') {
    const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
    if (type !== 'application/json') {
      throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Control calls are JSON: send "Content-Type: application/json" (with {} when there is nothing to say).', {
        received: request.headers['content-type'] ?? null,
      });
    }
  }
}

export function isLoopback(address: string): boolean {
  const plain = address.startsWith('::ffff:') ? address.slice(7) : address;
  return plain === '::1' || plain === 'localhost' || /^127\.\d+\.\d+\.\d+$/.test(plain);
}
