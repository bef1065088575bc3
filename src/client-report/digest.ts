/**
 * A digest of a request body (32-bit FNV-1a, with the length), as a number: enough to tell two creations'
 * bodies apart in one account's recent history, and cheap (one multiply a byte, no
 * allocation, no crypto) because it runs on the request path. Not a security hash: nothing
 * is proved with it, it is only compared.
 */
export function bodyDigest(bytes: Uint8Array | undefined): number {
  if (bytes === undefined || bytes.byteLength === 0) return 0;
  let hash = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) hash = Math.imul(hash ^ (bytes[i] as number), 16777619);
  // A number (no string to make or hash as a Map key): the hash, and the length below it.
  return (hash >>> 0) * 1_048_576 + (bytes.length % 1_048_576);
}
