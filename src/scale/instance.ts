/**
 * Several simulators behind one load balancer: accounts share nothing, so each instance can
 * own its own accounts, and every credential it mints says which instance that is. An API key
 * `svc_live_<hh>…` and a share link `/api/v1/shared/<hh>…` of instance `hh` (two hexadecimal
 * digits, 00 to ff) carry the tag in their first two characters, so a proxy routes on a
 * prefix match (nginx `map`, Envoy header matchers, HAProxy `req.hdr`) with no lookup.
 */

export const MAX_INSTANCE = 255;

/** The tag an instance puts at the start of its keys and share tokens: two lowercase hex digits. */
export function instanceTag(instance: number): string {
  if (!Number.isInteger(instance) || instance < 0 || instance > MAX_INSTANCE) {
    throw new RangeError(`instance must be an integer from 0 to ${MAX_INSTANCE}, not ${String(instance)}`);
  }
  return instance.toString(16).padStart(2, '0');
}

const KEY = /^(?:Bearer\s+)?svc_live_([0-9a-f]{2})[0-9a-f]{38}$/i;
const SHARE_PATH = /^\/api\/v1\/shared\/([0-9a-f]{2})[0-9a-f]*(?:[/?#]|$)/i;

/**
 * The instance that owns a credential: an API key (with or without `Bearer `), or a share
 * link's path, the `Bearer` scheme in any letter case. Undefined for anything else: a router
 * spreads new accounts (`POST /_sim/accounts`) over the instances and sends the rest (OAuth
 * sign-in and its tokens, the control API) to one of them, the one that signs in.
 */
export function instanceOf(credentialOrPath: string): number | undefined {
  const match = KEY.exec(credentialOrPath.trim()) ?? SHARE_PATH.exec(credentialOrPath);
  return match ? Number.parseInt(match[1] as string, 16) : undefined;
}
