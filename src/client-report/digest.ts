/**
 * A digest of a request body (32-bit MurmurHash3 of its bytes, with the length), as a number:
 * enough to tell two creations' bodies apart in one account's recent history, and cheap (four
 * bytes a step, no allocation, no crypto) because it runs on the request path. Not a security
 * hash: nothing is proved with it, it is only compared.
 */
export function bodyDigest(bytes: Uint8Array | undefined): number {
  if (bytes === undefined) return 0;
  const length = bytes.length;
  if (length === 0) return 0;
  let hash = 0x811c9dc5;
  const whole = length & ~3;
  let i = 0;
  for (; i < whole; i += 4) {
    const word = (bytes[i] as number) | ((bytes[i + 1] as number) << 8) | ((bytes[i + 2] as number) << 16) | ((bytes[i + 3] as number) << 24);
    hash ^= mixWord(word);
    hash = (hash << 13) | (hash >>> 19);
    hash = (Math.imul(hash, 5) + 0xe6546b64) | 0;
  }
  let tail = 0;
  for (let shift = 0; i < length; i++, shift += 8) tail |= (bytes[i] as number) << shift;
  if (length !== whole) hash ^= mixWord(tail);
  hash = fmix32(hash ^ length);
  // A number (no string to make or hash as a Map key): the hash, and the length below it.
  return (hash >>> 0) * 1_048_576 + (length % 1_048_576);
}

/** MurmurHash3's finish: every bit of the input moves every bit of the hash, the low ones included. */
export function fmix32(hash: number): number {
  hash = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b);
  hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2ae35);
  return hash ^ (hash >>> 16);
}

function mixWord(word: number): number {
  const k = Math.imul(word, 0xcc9e2d51);
  return Math.imul((k << 15) | (k >>> 17), 0x1b873593);
}
