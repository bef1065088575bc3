import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { sha256Hex } from '../credentials/sha256.js';
import { constantTimeEqual } from '../credentials/constant-time.js';

/**
 * What the authorization server issues: 256 random bits from the platform's cryptographic
 * source (never the seeded generator: a seed anyone can read must not let anyone derive
 * a token), kept only as SHA-256 digests.
 */
export function randomSecret(prefix: string): string {
  const bytes = new Uint8Array(32);
  globalThis.crypto.getRandomValues(bytes);
  return `${prefix}${base64url(bytes)}`;
}

export function hashSecret(secret: string): string {
  return sha256Hex(secret);
}

/** RFC 7636 §4.6 with S256: BASE64URL(SHA256(verifier)) == challenge, in constant time. */
export function pkceMatches(verifier: string, challenge: string): boolean {
  return constantTimeEqual(base64url(sha256(utf8ToBytes(verifier))), challenge);
}

/** RFC 7636 §4.1: 43 to 128 unreserved characters. */
export const VERIFIER_PATTERN = /^[A-Za-z0-9\-._~]{43,128}$/;
/** A S256 challenge is the base64url of 32 bytes: 43 characters. */
export const CHALLENGE_PATTERN = /^[A-Za-z0-9\-_]{43}$/;

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
