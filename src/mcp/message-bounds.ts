/**
 * What an /mcp body may be before any parsing work is spent on it: JSON nested at most
 * MAX_MESSAGE_DEPTH levels (checked by one linear scan of the text, strings skipped), and
 * after parsing, each message's `id` a string of at most MAX_ID_LENGTH characters or a number.
 * A ping whose id is nested a million levels deep otherwise costs the SDK's schema checks
 * a second of the event loop, for every account.
 */
export const MAX_MESSAGE_DEPTH = 128;
export const MAX_ID_LENGTH = 256;
/** Messages one batch may carry: each is counted in the rate limits, and each costs a dispatch. */
export const MAX_BATCH_MESSAGES = 100;

/** Follows the nesting of JSON text given in pieces: strings skipped, escapes inside them too. */
export class NestingScanner {
  private depth = 0;
  private inString = false;
  private escaped = false;

  constructor(private readonly limit: number) {}

  /** Reads one more piece; true once the text has opened more than `limit` arrays and objects inside one another. */
  exceeded(piece: string): boolean {
    for (let i = 0; i < piece.length; i++) {
      const c = piece.charCodeAt(i);
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === 0x5c) this.escaped = true;
        else if (c === 0x22) this.inString = false;
      } else if (c === 0x22) this.inString = true;
      else if (c === 0x7b || c === 0x5b) {
        if (++this.depth > this.limit) return true;
      } else if (c === 0x7d || c === 0x5d) this.depth--;
    }
    return false;
  }
}

/** Whether the JSON text opens more than `limit` arrays and objects inside one another. */
export function nestsDeeperThan(text: string, limit: number): boolean {
  return new NestingScanner(limit).exceeded(text);
}

export type BoundedBody = { text: string } | { refused: 'tooLarge' | 'tooDeep' };

/**
 * Reads a request body as text, at most `maxBytes`, following its nesting as it arrives: past
 * the piece that shows it too deep, the rest is drained without being decoded or scanned, and
 * nothing of it is parsed.
 */
export async function readBoundedBody(request: Request, maxBytes: number, maxDepth: number): Promise<BoundedBody> {
  if (Number(request.headers.get('content-length')) > maxBytes) return { refused: 'tooLarge' };
  if (request.body === null) return { text: '' };
  const reader = request.body.getReader();
  const decoder = new TextDecoder();
  const scanner = new NestingScanner(maxDepth);
  const pieces: string[] = [];
  let received = 0;
  // Once too deep, the rest is only drained (not decoded nor scanned), so the connection stays usable.
  let tooDeep = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      received += value.byteLength;
      if (received > maxBytes) return { refused: 'tooLarge' };
      if (tooDeep) continue;
      const piece = decoder.decode(value, { stream: true });
      tooDeep = scanner.exceeded(piece);
      pieces.push(piece);
    }
  } finally {
    reader.releaseLock();
  }
  if (tooDeep) return { refused: 'tooDeep' };
  pieces.push(decoder.decode());
  return { text: pieces.join('') };
}

/** The problem with the messages' ids, or undefined when every one is a short string, a number or absent. */
export function idProblem(body: unknown): string | undefined {
  const messages = Array.isArray(body) ? body : [body];
  if (messages.length > MAX_BATCH_MESSAGES) return `a batch carries at most ${MAX_BATCH_MESSAGES} messages`;
  for (const message of messages) {
    if (!message || typeof message !== 'object' || !('id' in message)) continue;
    const { id } = message as { id: unknown };
    if (typeof id === 'number' || id === null) continue;
    if (typeof id !== 'string') return 'an id must be a string or a number';
    if (id.length > MAX_ID_LENGTH) return `an id is at most ${MAX_ID_LENGTH} characters`;
  }
  return undefined;
}

/**
 * The messages of a body that count in the rate limits here: every one but tool calls, which
 * the engine counts like the REST request each stands for (and `initialize`, counted apart).
 */
export function uncountedMessages(body: unknown): number {
  let count = 0;
  for (const message of Array.isArray(body) ? body : [body]) {
    const method = message && typeof message === 'object' ? (message as { method?: unknown }).method : undefined;
    if (method !== 'tools/call' && method !== 'initialize') count++;
  }
  return count;
}
