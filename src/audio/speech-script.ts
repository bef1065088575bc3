/**
 * What the listen version reads: a deliverable's Markdown as plain spoken text. Code
 * blocks, images, citation markers, bare URLs, tables' rulers and HTML go; a link reads as
 * its text; headings and list items stay on their own lines, so the speech pauses there.
 */

const FENCED_CODE = /^(```|~~~)[^\n]*\n[\s\S]*?(?:^\1[^\n]*$|(?![\s\S]))/gm;
const IMAGE = /!\[[^\]]*\]\([^)]*\)/g;
/** `[\[3\]](https://…)`: a numbered citation, nothing to read. */
const CITATION = /\[\\?\[\d+\\?\]\]\([^)]*\)/g;
const LINK = /\[((?:\\.|[^\]\\])*)\]\([^)]*\)/g;
const BARE_URL = /\b(?:https?:\/\/|www\.)[^\s)>\]]+/g;
const HTML_TAG = /<\/?[A-Za-z][^>]*>/g;
const TABLE_RULER = /^[ \t]*\|?[ \t]*:?-{3,}:?[ \t]*(?:\|[ \t]*:?-{3,}:?[ \t]*)*\|?[ \t]*(?:\n|$)/gm;
const LINE_PREFIX = /^[ \t]*(?:>[ \t]?)*[ \t]*(?:#{1,6}[ \t]+|[-*+][ \t]+|\d+[.)][ \t]+)?/gm;
const RULE = /^[ \t]*(?:[-*_][ \t]*){3,}$/gm;
const EMPHASIS = /(\*\*|\*|~~)(?=\S)([\s\S]*?\S)\1/g;
/** Underscores only emphasise at word edges: CRUMB_CO_API_KEY keeps its own. */
const UNDERSCORE_EMPHASIS = /(?<!\w)(__|_)(?=\S)([\s\S]*?\S)\1(?!\w)/g;
const INLINE_CODE = /`+([^`]*)`+/g;
const ESCAPE = /\\([\\`*_{}[\]()#+\-.!|>~])/g;

export function speechTextOf(markdown: string): string {
  let text = markdown.replace(/\r\n?/g, '\n');
  text = text.replace(FENCED_CODE, '\n');
  text = text.replace(IMAGE, '').replace(CITATION, '').replace(LINK, '$1');
  text = text.replace(BARE_URL, '').replace(HTML_TAG, '');
  text = text.replace(TABLE_RULER, '').replace(RULE, '');
  text = text.replace(LINE_PREFIX, '');
  text = text.replace(/[ \t]*\|[ \t]*/g, ', ');
  // Inline code is part of a sentence ("set the `API_KEY` variable"): its words stay.
  text = text.replace(INLINE_CODE, '$1').replace(EMPHASIS, '$2').replace(EMPHASIS, '$2').replace(UNDERSCORE_EMPHASIS, '$2');
  text = text.replace(/\\\n/g, '\n').replace(ESCAPE, '$1');
  return text
    .split('\n')
    .map((line) => line.replace(/^[\s,]+|[\s,]+$/g, '').replace(/^[-*+][ \t]+/, '').replace(/[ \t]{2,}/g, ' '))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
