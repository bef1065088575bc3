import type { GeneratedContent } from '../content/types.js';

/** What the cache may hold by default: about 1,000 blog pages. */
export const DEFAULT_CONTENT_CACHE_BYTES = 32 * 1024 * 1024;
/** An entry and its key, roughly: counted so that a cache of small answers stays in budget too. */
const ANSWER_OVERHEAD = 200;
/** Slots of the table of builds asked for once (a power of two): 256 KiB, whatever the history. */
const SEEN_SLOTS = 1 << 16;

const encoder = new TextEncoder();

/**
 * A completed build's answer to GET: its text (what the journal and in-process callers read)
 * and the same text encoded once, which a socket adapter sends as it is instead of encoding
 * (and first flattening) the text again on every read.
 */
export interface CachedAnswer {
  readonly text: string;
  readonly bytes: Uint8Array;
}

/**
 * Generated content is a pure function of the seed and the build, so it is never stored with
 * the build: this cache only saves regenerating what was read recently. It holds at most
 * `maxBytes` (estimated from the text it keeps), evicting the least recently used build; a
 * Map's insertion order is its recency order, so each step is O(1). An entry holds a build's
 * pages, its answer to GET (a completed build's, which never changes), or both.
 */
export class ContentCache {
  private readonly entries = new Map<string, { pages?: GeneratedContent[]; bytes: number; answer?: CachedAnswer }>();
  /** Rendered media (a listen version's WAV, an image's SVG) by record id: rendering costs far more than reading. */
  private readonly media = new Map<string, Uint8Array | string>();
  private bytes = 0;
  /** A hash of each build whose answer was offered once, one per slot, the newest winning its slot. */
  private readonly seen = new Uint32Array(SEEN_SLOTS);

  constructor(readonly maxBytes = DEFAULT_CONTENT_CACHE_BYTES) {}

  get size(): number {
    return this.entries.size;
  }

  get heldBytes(): number {
    return this.bytes;
  }

  get(buildId: string): GeneratedContent[] | undefined {
    const entry = this.entries.get(buildId);
    if (!entry?.pages) return undefined;
    this.entries.delete(buildId);
    this.entries.set(buildId, entry);
    return entry.pages;
  }

  set(buildId: string, pages: GeneratedContent[]): void {
    const answer = this.entries.get(buildId)?.answer;
    const bytes = estimateBytes(pages) + (answer === undefined ? 0 : answerBytes(answer));
    if (bytes > this.maxBytes) return;
    this.delete(buildId);
    this.entries.set(buildId, { pages, bytes, ...(answer === undefined ? {} : { answer }) });
    this.bytes += bytes;
    this.evict();
  }

  /** The JSON answer to GET of a completed build, as written the first time. */
  answer(buildId: string): CachedAnswer | undefined {
    return this.entries.get(buildId)?.answer;
  }

  /**
   * Keeps the answer, with the build's pages when they are cached, else alone: a poller's GET
   * needs only the answer, and keeping whole pages for it would carry each one into V8's old
   * generation to die there (at a million builds, most of the time went to collecting them).
   * An answer alone is kept from the second time it is offered: one read once and never again
   * (most, in a long history) would live in the cache long enough to reach the old generation
   * and die there, raising the peak of the heap by as much as the cache turns over.
   */
  setAnswer(buildId: string, answer: string): void {
    const entry = this.entries.get(buildId);
    if (entry?.answer !== undefined) return;
    if (!entry && !this.seenBefore(buildId)) return;
    const kept: CachedAnswer = { text: answer, bytes: encoder.encode(answer) };
    const bytes = answerBytes(kept);
    if (entry) {
      entry.answer = kept;
      entry.bytes += bytes;
    } else {
      this.entries.set(buildId, { bytes, answer: kept });
    }
    this.bytes += bytes;
    this.evict();
  }

  /** A rendered file kept under `key` (a media record's id), or undefined. */
  rendered(key: string): Uint8Array | string | undefined {
    const file = this.media.get(key);
    if (file === undefined) return undefined;
    this.media.delete(key);
    this.media.set(key, file);
    return file;
  }

  /** Keeps a rendered file within the same byte budget as the content; one larger than an eighth of it is not kept. */
  keepRendered(key: string, file: Uint8Array | string): void {
    const bytes = mediaBytes(file);
    if (bytes > this.maxBytes / 8) return;
    const old = this.media.get(key);
    if (old !== undefined) this.bytes -= mediaBytes(old);
    this.media.delete(key);
    this.media.set(key, file);
    this.bytes += bytes;
    this.evict();
  }

  /** Whether the build was offered before (recently enough to hold its slot); marks it as offered. */
  private seenBefore(buildId: string): boolean {
    const hash = fnv1a(buildId);
    const slot = hash & (SEEN_SLOTS - 1);
    if (this.seen[slot] === hash) return true;
    this.seen[slot] = hash;
    return false;
  }

  private evict(): void {
    // Media first: a file is rendered again from its record, cheaper to lose than a build's pages.
    for (const [key, file] of this.media) {
      if (this.bytes <= this.maxBytes) return;
      this.media.delete(key);
      this.bytes -= mediaBytes(file);
    }
    for (const [id, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(id);
      this.bytes -= entry.bytes;
    }
  }

  delete(buildId: string): void {
    const entry = this.entries.get(buildId);
    if (!entry) return;
    this.entries.delete(buildId);
    this.bytes -= entry.bytes;
  }

  clear(): void {
    this.entries.clear();
    this.media.clear();
    this.seen.fill(0);
    this.bytes = 0;
  }
}

/** FNV-1a, 32 bits: cheap, and spread well enough over ids to index the table of builds seen. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

function mediaBytes(file: Uint8Array | string): number {
  return (typeof file === 'string' ? file.length * 2 : file.byteLength) + ANSWER_OVERHEAD;
}

/** An answer's text, two bytes a character, its encoded bytes, and its entry (an encoded copy's buffer counted as another). */
function answerBytes(answer: CachedAnswer): number {
  return answer.text.length * 2 + answer.bytes.byteLength + 2 * ANSWER_OVERHEAD;
}

/**
 * Two bytes a character for the texts that dominate (markdown and HTML are each the whole
 * article), plus the other fields counted roughly: an estimate in the right order, cheap
 * enough to take on every insert.
 */
function estimateBytes(pages: GeneratedContent[]): number {
  let chars = 0;
  for (const page of pages) {
    chars += page.markdown.length + page.html.length + page.summary.length + page.title.length + page.metaDescription.length;
    chars += 300 * (page.sources.length + page.claims.length + page.images.length) + 2_000;
  }
  return chars * 2;
}
