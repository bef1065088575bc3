/**
 * A library item's content words, taken once per version of the item (when it is written) and
 * kept beside it: a chat message then costs a lookup per word of its own for each item, never
 * a tokenizing of the whole library.
 */
import type { LibraryItemRecord } from '../store/records.js';
import { contentWords } from '../suggestions/stop-words.js';

/** An item's words, made once per version of the item: a message then costs a lookup per word of its own, not a tokenizing of the whole library. */
export interface ItemWords {
  /** The texts the words were taken from: an edit (even within one frozen instant) makes them again. */
  nameText: string;
  contentText: string;
  name: ReadonlySet<string>;
  content: ReadonlySet<string>;
}
const wordsOfItem = new WeakMap<LibraryItemRecord, ItemWords>();

export function itemWords(item: LibraryItemRecord): ItemWords {
  const known = wordsOfItem.get(item);
  if (known && known.nameText === item.name && known.contentText === item.content) return known;
  const words = { nameText: item.name, contentText: item.content, name: new Set(contentWords(item.name)), content: new Set(contentWords(item.content)) };
  wordsOfItem.set(item, words);
  return words;
}

