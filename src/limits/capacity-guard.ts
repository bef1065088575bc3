import type { Capacity } from './capacity.js';

/**
 * What a used-up memory budget refuses outside the service API (which refuses its own
 * writes, see `growsState`). Each of these stores something a caller can repeat at will;
 * reads, deletes, revocations, resets and the health probes all go on, so room can be
 * freed and an orchestrator still sees the process alive.
 */
const CONTROL_OPERATIONS_THAT_STORE = new Set([
  'createSimulatorAccount',
  'loadScenario',
  'mintOAuthTokens',
  'restoreSnapshot',
  'createFault',
  // A live feed holds a buffer for as long as it is open.
  'streamJournal',
]);

/** OAuth endpoints that store a client, a pending sign-in, a code or tokens; revocation frees and goes on. */
const OAUTH_PATHS_THAT_STORE = new Set(['/oauth/register', '/oauth/authorize', '/oauth/token']);

export function controlRefusedWhenFull(capacity: Capacity, operationId: string): boolean {
  return capacity.exceeded && CONTROL_OPERATIONS_THAT_STORE.has(operationId);
}

export function oauthRefusedWhenFull(capacity: Capacity, method: string, path: string): boolean {
  return capacity.exceeded && method === 'POST' && OAUTH_PATHS_THAT_STORE.has(path);
}

/**
 * The OAuth endpoints' answer while the budget is used up, in RFC 6749's error shape
 * (§4.1.2.1 names `temporarily_unavailable`), never cached, with when to come back.
 */
export function oauthCapacityReply(capacity: Capacity): { status: number; json: Record<string, string>; headers: Record<string, string> } {
  const retryAfterSeconds = 30;
  return {
    status: 503,
    json: {
      error: 'temporarily_unavailable',
      error_description: `The simulator's memory budget is used up (${capacity.usedMiB} of ${capacity.limitMiB} MiB): try again later.`,
    },
    headers: { 'cache-control': 'no-store', pragma: 'no-cache', 'retry-after': String(retryAfterSeconds) },
  };
}
