/**
 * A 53-bit digest of a request body (cyrb53): enough to tell two creations' bodies apart in
 * one account's recent history, and cheap (no allocation, no crypto) because it runs on the
 * request path. Not a security hash: nothing is proved with it, it is only compared.
 */
export function bodyDigest(bytes: Uint8Array | undefined): string {
  if (bytes === undefined || bytes.byteLength === 0) return '0';
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i] as number;
    h1 = Math.imul(h1 ^ byte, 2654435761);
    h2 = Math.imul(h2 ^ byte, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}
