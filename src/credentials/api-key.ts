import { sha256Hex } from './sha256.js';

/** `svc_live_` followed by 40 lower-case hexadecimal characters (spec, API key). */
export const API_KEY_PATTERN = /^svc_live_[0-9a-f]{40}$/;
export const API_KEY_PREFIX = 'svc_live_';

export type Scope = 'svc:read' | 'svc:write';
export const SCOPES: readonly Scope[] = ['svc:read', 'svc:write'];

/**
 * Keys are stored only as SHA-256 digests: a leaked store (or a heap dump) gives no
 * usable key. A fast hash is right here because keys carry 160 random bits.
 */
export function hashApiKey(key: string): string {
  return sha256Hex(key);
}

/** What may be shown of a key in logs and listings: its prefix and last four characters. */
export function keyHint(key: string): string {
  return `${API_KEY_PREFIX}…${key.slice(-4)}`;
}
