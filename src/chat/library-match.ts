/**
 * Which of the target's library items a message relates to: simple keyword overlap
 * between the message and the item's name and content, with a glossary term also matching
 * when its name appears in the message as a whole.
 */
import type { LibraryItemRecord, LibraryItemType } from '../store/records.js';
import { contentWords } from '../suggestions/stop-words.js';
import { itemWords } from '../library/library-words.js';

export interface LibraryMatch {
  item: LibraryItemRecord;
  score: number;
}

/** How many of the message's words the item's words hold. */
function overlap(messageWords: ReadonlySet<string>, itemWords: ReadonlySet<string>): number {
  let hits = 0;
  for (const word of messageWords) if (itemWords.has(word)) hits++;
  return hits;
}

/**
 * The best item of each type the message relates to (name matches weigh double); none if
 * nothing matches. Linear in the library's size, each item costing one lookup per word of the
 * message (the library is capped by the account's quota).
 */
export function matchLibrary(message: string, items: readonly LibraryItemRecord[]): Map<LibraryItemType, LibraryMatch> {
  const words = new Set(contentWords(message));
  const lower = message.toLowerCase();
  const best = new Map<LibraryItemType, LibraryMatch>();
  for (const item of items) {
    const known = itemWords(item);
    let score = 2 * overlap(words, known.name) + overlap(words, known.content);
    const name = item.type === 'glossary_term' ? item.name.trim().toLowerCase() : '';
    if (name.length > 1 && lower.includes(name)) score += 3;
    if (score === 0) continue;
    const current = best.get(item.type);
    if (!current || score > current.score) best.set(item.type, { item, score });
  }
  return best;
}

/** The first item of a type, for intents that want one even without a keyword match (a CTA). */
export function firstOfType(items: readonly LibraryItemRecord[], type: LibraryItemType): LibraryItemRecord | undefined {
  return items.find((item) => item.type === type);
}
