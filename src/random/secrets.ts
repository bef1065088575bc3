/**
 * Secret values (API keys made through the API, share tokens) come from the platform's
 * cryptographic generator: the seed is public (and `GET /_sim` tells it), so nothing
 * derived from it may open anyone's account. Works in Node and in browsers alike.
 */
export function randomHex(length: number): string {
  const bytes = new Uint8Array(Math.ceil(length / 2));
  globalThis.crypto.getRandomValues(bytes);
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return hex.slice(0, length);
}
