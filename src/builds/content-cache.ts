import type { GeneratedContent } from '../content/types.js';

/** What the cache may hold by default: about 1,000 blog pages. */
export const DEFAULT_CONTENT_CACHE_BYTES = 32 * 1024 * 1024;

/**
 * Generated content is a pure function of the seed and the build, so it is never stored with
 * the build: this cache only saves regenerating what was read recently. It holds at most
 * `maxBytes` (estimated from the text it keeps), evicting the least recently used build; a
 * Map's insertion order is its recency order, so each step is O(1).
 */
export class ContentCache {
  private readonly entries = new Map<string, { pages: GeneratedContent[]; bytes: number; answer?: string }>();
  private bytes = 0;

  constructor(readonly maxBytes = DEFAULT_CONTENT_CACHE_BYTES) {}

  get size(): number {
    return this.entries.size;
  }

  get heldBytes(): number {
    return this.bytes;
  }

  get(buildId: string): GeneratedContent[] | undefined {
    const entry = this.entries.get(buildId);
    if (!entry) return undefined;
    this.entries.delete(buildId);
    this.entries.set(buildId, entry);
    return entry.pages;
  }

  set(buildId: string, pages: GeneratedContent[]): void {
    const bytes = estimateBytes(pages);
    if (bytes > this.maxBytes) return;
    this.delete(buildId);
    this.entries.set(buildId, { pages, bytes });
    this.bytes += bytes;
    for (const [id, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(id);
      this.bytes -= entry.bytes;
    }
  }

  /**
   * The JSON answer to GET of a completed build, kept with its content: neither changes once
   * the build has completed, so a poller's reads are served without serializing again.
   */
  answer(buildId: string): string | undefined {
    return this.entries.get(buildId)?.answer;
  }

  /** Keeps `answer` with the build's cached content (and nothing when its content is not cached). */
  setAnswer(buildId: string, answer: string): void {
    const entry = this.entries.get(buildId);
    if (!entry || entry.answer !== undefined) return;
    entry.answer = answer;
    entry.bytes += answer.length * 2;
    this.bytes += answer.length * 2;
  }

  delete(buildId: string): void {
    const entry = this.entries.get(buildId);
    if (!entry) return;
    this.entries.delete(buildId);
    this.bytes -= entry.bytes;
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }
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
