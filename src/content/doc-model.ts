/**
 * The article as a tree of blocks. Kinds build this tree; the Markdown and HTML renderers
 * both derive from it, so the two downloads always say the same thing and all user text
 * stays plain text until a renderer escapes it for its own syntax.
 */

export type Inline =
  | { t: 'text'; text: string }
  | { t: 'strong'; text: string }
  | { t: 'em'; text: string }
  | { t: 'code'; text: string }
  | { t: 'link'; text: string; href: string }
  | { t: 'br' };

export type Block =
  | { t: 'h'; level: 2 | 3; text: string }
  /** `lead` marks the paragraph that opens the article (SEO lead, news lede). */
  | { t: 'p'; content: Inline[]; lead?: boolean }
  | { t: 'list'; ordered: boolean; items: Inline[][]; task?: boolean }
  | { t: 'quote'; paragraphs: Inline[][] }
  | { t: 'code'; lang: string; code: string }
  | { t: 'table'; head: string[]; rows: string[][] }
  | { t: 'img'; alt: string; src: string; width: number; height: number; caption?: string }
  | { t: 'hr' }
  /** The "###" end mark of a press release. */
  | { t: 'end' };

export type Part = string | Inline;

export function inl(part: Part): Inline {
  return typeof part === 'string' ? { t: 'text', text: part } : part;
}

export const strong = (text: string): Inline => ({ t: 'strong', text });
export const em = (text: string): Inline => ({ t: 'em', text });
export const code = (text: string): Inline => ({ t: 'code', text });
export const link = (text: string, href: string): Inline => ({ t: 'link', text, href });
export const br: Inline = { t: 'br' };

export function h2(text: string): Block {
  return { t: 'h', level: 2, text };
}

export function h3(text: string): Block {
  return { t: 'h', level: 3, text };
}

export function p(...parts: Part[]): Block {
  return { t: 'p', content: parts.map(inl) };
}

/** A paragraph of sentences, joined by single spaces. */
export function para(sentences: readonly string[]): Block {
  return { t: 'p', content: [{ t: 'text', text: sentences.join(' ') }] };
}

export function ul(items: ReadonlyArray<Part | Part[]>, task = false): Block {
  return { t: 'list', ordered: false, items: items.map(toInlines), task };
}

export function ol(items: ReadonlyArray<Part | Part[]>): Block {
  return { t: 'list', ordered: true, items: items.map(toInlines) };
}

function toInlines(item: Part | Part[]): Inline[] {
  return Array.isArray(item) ? item.map(inl) : [inl(item)];
}

/** Plain text of inline content, as a reader sees it. */
export function inlineText(content: readonly Inline[]): string {
  let out = '';
  for (const part of content) out += part.t === 'br' ? '\n' : part.text;
  return out;
}

/** Visible prose of a block (code and images excluded): what word counts are made of. */
export function blockText(block: Block): string {
  switch (block.t) {
    case 'h':
      return block.text;
    case 'p':
      return inlineText(block.content);
    case 'list':
      return block.items.map(inlineText).join('\n');
    case 'quote':
      return block.paragraphs.map(inlineText).join('\n');
    case 'table':
      return [block.head, ...block.rows].map((row) => row.join(' ')).join('\n');
    case 'img':
      return block.caption ?? '';
    case 'end':
      return '###';
    default:
      return '';
  }
}
