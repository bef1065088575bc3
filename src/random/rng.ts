/**
 * Deterministic randomness. Every random choice in the simulator comes from an Rng
 * derived from the simulator's seed and the id of the entity it concerns, so the same
 * seed and the same requests give byte-identical responses. Math.random is never used.
 */

/** 32-bit FNV-1a hash of a string: cheap, stable, good enough to derive sub-seeds. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export type RngState = [number, number, number, number];

const HEX_DIGITS = '0123456789abcdef';
/**
 * Character codes of the string being made, one array per length, reused: an id is made from
 * them in one `String.fromCharCode` call, a flat string. Joined from pieces (`a + b + …`), each id
 * would be a tree of concatenations (V8's cons strings) that a million records keep alive, about
 * 700 bytes a build; grown anew each time, the array would be garbage on every request.
 */
const buffers: number[][] = [];
const bufferOf = (length: number): number[] => (buffers[length] ??= new Array<number>(length).fill(0));
/** The 32 digits a UUID is drawn from. */
const UUID_DIGITS = new Array<number>(32).fill(0);

/** Writes a 32-bit word's hex digits, most significant first, into `out` from `at`, stopping at `end`; answers where it stopped. */
function writeHex8(word: number, out: number[], at: number, end: number): number {
  for (let shift = 28; shift >= 0 && at < end; shift -= 4) out[at++] = HEX_DIGITS.charCodeAt((word >>> shift) & 15);
  return at;
}

/** A small, fast seeded generator (sfc32) with helpers for the choices generators make. */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  /** Seeds from any number of parts, e.g. `new Rng(seed, buildId, 'sources')`. */
  constructor(...parts: Array<string | number>) {
    const key = parts.join('\u0000');
    this.a = hash32(`a${key}`);
    this.b = hash32(`b${key}`);
    this.c = hash32(`c${key}`);
    this.d = hash32(`d${key}`) | 1;
    for (let i = 0; i < 12; i++) this.nextUint32();
  }

  /** Where the stream stands: saved with the simulation, so a restart does not reissue ids. */
  getState(): RngState {
    return [this.a, this.b, this.c, this.d];
  }

  setState([a, b, c, d]: RngState): void {
    this.a = a | 0;
    this.b = b | 0;
    this.c = c | 0;
    this.d = d | 0;
  }

  nextUint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    return this.nextUint32() / 4294967296;
  }

  /** An integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** A float in [min, max). */
  float(min: number, max: number): number {
    return min + this.next() * (max - min);
  }

  bool(probability = 0.5): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('Rng.pick on an empty list');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** `count` distinct items, in random order (fewer if the list is shorter). */
  sample<T>(items: readonly T[], count: number): T[] {
    const copy = items.slice();
    const n = Math.min(count, copy.length);
    for (let i = 0; i < n; i++) {
      const j = i + Math.floor(this.next() * (copy.length - i));
      [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
    }
    return copy.slice(0, n);
  }

  /** `length` hex digits, after `prefix` (kept in the same flat string). */
  hex(length: number, prefix = ''): string {
    const end = prefix.length + length;
    const out = bufferOf(end);
    for (let i = 0; i < prefix.length; i++) out[i] = prefix.charCodeAt(i);
    for (let at = prefix.length; at < end; ) at = writeHex8(this.nextUint32(), out, at, end);
    return String.fromCharCode.apply(null, out);
  }

  /** A UUID v4 string whose random bits come from this generator (the same bits `hex(32)` gives). */
  uuid(): string {
    const digits = UUID_DIGITS;
    for (let i = 0; i < 4; i++) writeHex8(this.nextUint32(), digits, i * 8, 32);
    // Version 4 at hex digit 12, the variant's two bits on digit 16 (drawn from the digit it replaces).
    digits[12] = 0x34;
    const digit16 = digits[16] as number;
    digits[16] = HEX_DIGITS.charCodeAt(8 + ((digit16 <= 0x39 ? digit16 - 0x30 : digit16 - 0x57) & 3));
    const out = bufferOf(36);
    for (let i = 0, at = 0; i < 32; i++) {
      if (i === 8 || i === 12 || i === 16 || i === 20) out[at++] = 0x2d;
      out[at++] = digits[i] as number;
    }
    return String.fromCharCode.apply(null, out);
  }
}
