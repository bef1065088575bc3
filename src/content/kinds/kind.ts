/** What a kind writer returns: its title, body blocks and kind-specific data. */
import type { GenContext } from '../context.js';
import type { Block } from '../doc-model.js';
import type { GeneratedImage } from '../types.js';

export interface KindResult {
  title: string;
  /** One or two sentences; the meta description is made from it. */
  summary: string;
  blocks: Block[];
  kindData: Record<string, unknown>;
  /** For data that depends on the final word count (a blog's reading time). */
  finish?: (kindData: Record<string, unknown>, wordCount: number) => Record<string, unknown>;
  /** A press release keeps "###" last, so its sources go just before the end mark. */
  sourcesBeforeEnd?: boolean;
  /** The image kind makes its own images (always at least one). */
  images?: GeneratedImage[];
}

export type KindWriter = (ctx: GenContext) => KindResult;
