import type { Steps } from './steps.js';

/**
 * JSON read from its UTF-8 bytes as steps: the same values `JSON.parse` makes (RFC 8259, a
 * leading byte-order mark skipped as `TextDecoder` skips it, `__proto__` kept as a plain key),
 * but a few hundred values at a time, so a large restore never holds the event loop for long,
 * and with limits checked as the text is read: a string longer than `maxStringLength` or a
 * nesting deeper than `maxDepth` is refused where it starts, before it is built.
 */
export interface JsonLimits {
  /** Most UTF-16 code units in one string (a key or a value). */
  maxStringLength: number;
  maxDepth: number;
}

/** Where reading stopped, and why: `path` in the notation of validation errors (`accounts[0].name`), '' for the top. */
export class JsonReadError extends Error {
  constructor(
    message: string,
    readonly kind: 'syntax' | 'encoding' | 'limit',
    readonly path: string,
  ) {
    super(message);
  }
}

/** Values read between two steps. */
const VALUES_PER_STEP = 256;
const decoder = new TextDecoder('utf-8', { fatal: true });

interface Open {
  value: unknown[] | Record<string, unknown>;
  /** The key whose value is being read (objects). */
  key: string | null;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

export function* readJsonSteps(bytes: Uint8Array, limits: JsonLimits): Steps<unknown> {
  const reader = new Reader(bytes, limits);
  return yield* reader.document();
}

class Reader {
  private i = 0;
  private readonly stack: Open[] = [];

  constructor(
    private readonly b: Uint8Array,
    private readonly limits: JsonLimits,
  ) {
    if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) this.i = 3;
  }

  *document(): Steps<unknown> {
    let count = 0;
    let value: unknown;
    for (;;) {
      // A value starts here: a container opens (and the loop goes on inside it) or a scalar is read.
      this.space();
      const c = this.b[this.i];
      if (c === 0x7b || c === 0x5b) {
        if (this.stack.length >= this.limits.maxDepth) throw this.limit(`nests deeper than ${this.limits.maxDepth} levels`);
        this.i++;
        const open: Open = c === 0x7b ? { value: {}, key: null } : { value: [], key: null };
        this.stack.push(open);
        this.space();
        if (this.b[this.i] === (c === 0x7b ? 0x7d : 0x5d)) {
          this.i++;
          this.stack.pop();
          value = open.value;
        } else {
          if (c === 0x7b) open.key = this.key();
          continue;
        }
      } else {
        value = this.scalar(c);
      }
      // The value is whole: it goes into the containers it closes, one after another.
      for (;;) {
        const top = this.stack[this.stack.length - 1];
        if (!top) {
          this.space();
          if (this.i < this.b.length) throw this.syntax('unexpected text after the JSON value');
          return value;
        }
        if (Array.isArray(top.value)) top.value.push(value);
        else if (top.key === '__proto__') Object.defineProperty(top.value, top.key, { value, writable: true, enumerable: true, configurable: true });
        else top.value[top.key as string] = value;
        this.space();
        const next = this.b[this.i++];
        if (next === 0x2c) {
          if (!Array.isArray(top.value)) {
            top.key = null; // a fault in the key is told at the object
            top.key = this.key();
          }
          break;
        }
        if (next !== (Array.isArray(top.value) ? 0x5d : 0x7d)) {
          this.i--;
          throw this.syntax(Array.isArray(top.value) ? "expected ',' or ']'" : "expected ',' or '}'");
        }
        this.stack.pop();
        value = top.value;
      }
      if (++count % VALUES_PER_STEP === 0) yield;
    }
  }

  /** A key and its colon; the reader then stands before the value. */
  private key(): string {
    this.space();
    if (this.b[this.i] !== QUOTE) throw this.syntax('expected a key in double quotes');
    const key = this.string();
    this.space();
    if (this.b[this.i] !== 0x3a) throw this.syntax("expected ':'");
    this.i++;
    return key;
  }

  private scalar(c: number | undefined): unknown {
    if (c === QUOTE) return this.string();
    if (c === 0x2d || (c !== undefined && c >= 0x30 && c <= 0x39)) return this.number();
    if (this.word('true')) return true;
    if (this.word('false')) return false;
    if (this.word('null')) return null;
    throw this.syntax(c === undefined ? 'unexpected end of the text' : 'expected a value');
  }

  private word(w: string): boolean {
    for (let k = 0; k < w.length; k++) if (this.b[this.i + k] !== w.charCodeAt(k)) return false;
    this.i += w.length;
    return true;
  }

  private number(): number {
    const { b } = this;
    const start = this.i;
    let j = start;
    if (b[j] === 0x2d) j++;
    if (b[j] === 0x30) j++;
    else if (isDigit(b[j])) while (isDigit(b[j])) j++;
    else throw this.syntax('expected a digit', j);
    if (b[j] === 0x2e) {
      j++;
      if (!isDigit(b[j])) throw this.syntax('expected a digit after the decimal point', j);
      while (isDigit(b[j])) j++;
    }
    if (b[j] === 0x65 || b[j] === 0x45) {
      j++;
      if (b[j] === 0x2b || b[j] === 0x2d) j++;
      if (!isDigit(b[j])) throw this.syntax('expected a digit in the exponent', j);
      while (isDigit(b[j])) j++;
    }
    this.i = j;
    return Number(this.ascii(start, j));
  }

  /** A string, the reader on its opening quote. Longer than the limit: refused once that many bytes are seen, never built. */
  private string(): string {
    const { b } = this;
    const start = this.i + 1;
    // No string of more bytes than this can decode to the limit or fewer (`\uXXXX`: six bytes, one unit).
    const most = 6 * this.limits.maxStringLength;
    let j = start;
    let plain = true;
    for (;;) {
      const c = b[j];
      if (c === QUOTE) break;
      if (c === undefined) throw this.syntax('a string is not closed', start - 1);
      if (c === BACKSLASH) {
        plain = false;
        j += 2;
      } else {
        if (c < 0x20) throw this.syntax('a control character in a string must be escaped', j);
        if (c >= 0x80) plain = false;
        j++;
      }
      if (j - start > most) throw this.limit(`is a string longer than ${this.limits.maxStringLength} characters`);
    }
    this.i = j + 1;
    const text = plain ? this.ascii(start, j) : this.decode(start, j);
    if (text.length > this.limits.maxStringLength) throw this.limit(`is a string longer than ${this.limits.maxStringLength} characters`);
    return text;
  }

  private decode(start: number, end: number): string {
    const parts: string[] = [];
    let from = start;
    for (let j = start; j < end; j++) {
      if (this.b[j] !== BACKSLASH) continue;
      if (j > from) parts.push(this.utf8(from, j));
      const e = this.b[j + 1];
      const simple = e === undefined ? undefined : ESCAPES[e];
      if (simple !== undefined) {
        parts.push(simple);
        j++;
      } else if (e === 0x75) {
        const hex = this.ascii(j + 2, j + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw this.syntax('a \\u escape needs four hex digits', j);
        parts.push(String.fromCharCode(parseInt(hex, 16)));
        j += 5;
      } else {
        throw this.syntax('an unknown escape in a string', j);
      }
      from = j + 1;
    }
    if (end > from) parts.push(this.utf8(from, end));
    return parts.join('');
  }

  /**
   * Bytes below 0x80 as their characters: a short run by one call (its bytes as the call's
   * arguments, cheap), a long one by the decoder (a call's arguments are bounded, a run is not).
   */
  private ascii(start: number, end: number): string {
    if (end - start > 64) return decoder.decode(this.b.subarray(start, end));
    return String.fromCharCode.apply(null, this.b.subarray(start, end) as unknown as number[]);
  }

  private utf8(start: number, end: number): string {
    try {
      return decoder.decode(this.b.subarray(start, end));
    } catch {
      throw new JsonReadError(`is not valid UTF-8 (at byte ${start})`, 'encoding', this.path());
    }
  }

  private space(): void {
    const { b } = this;
    let c = b[this.i];
    while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = b[++this.i];
  }

  private syntax(message: string, at = this.i): JsonReadError {
    return new JsonReadError(`is not valid JSON (${message} at byte ${at})`, 'syntax', this.path());
  }

  private limit(message: string): JsonReadError {
    return new JsonReadError(message, 'limit', this.path());
  }

  /** Where the reader stands, as `accounts[3].name`. */
  private path(): string {
    let path = '';
    for (const open of this.stack) {
      if (Array.isArray(open.value)) path += `[${open.value.length}]`;
      else if (open.key !== null) path += /^[A-Za-z_$][\w$]*$/.test(open.key) ? `${path ? '.' : ''}${open.key}` : `[${JSON.stringify(open.key)}]`;
    }
    return path;
  }
}

const ESCAPES: Record<number, string> = { 0x22: '"', 0x5c: '\\', 0x2f: '/', 0x62: '\b', 0x66: '\f', 0x6e: '\n', 0x72: '\r', 0x74: '\t' };

function isDigit(c: number | undefined): boolean {
  return c !== undefined && c >= 0x30 && c <= 0x39;
}
