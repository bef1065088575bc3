/**
 * What the listen version reads: a deliverable's Markdown as plain spoken text. Code
 * blocks, images, citation markers, bare URLs, tables' rulers and HTML go; a link reads as
 * its text; headings and list items stay on their own lines, so the speech pauses there.
 */

const FENCED_CODE = /^(```|~~~)[^\n]*\n[\s\S]*?(?:^\1[^\n]*$|(?![\s\S]))/gm;
/*
 * Every span that may repeat runs at most a bounded length (a link's text, a URL, a tag, an
 * emphasis): a pattern that scans to the end of the text from each of n openers costs n², and
 * a deliverable's text is what its caller wrote. Longer spans are simply read as they are.
 */
const IMAGE = /!\[[^[\]\n]{0,500}\]\([^)\n]{0,2000}\)/g;
/** `[\[3\]](https://…)`: a numbered citation, nothing to read. */
const CITATION = /\[\\?\[\d+\\?\]\]\([^)\n]{0,2000}\)/g;
const LINK = /\[((?:\\[^[]|[^[\]\\\n]){0,500})\]\([^)\n]{0,2000}\)/g;
const BARE_URL = /\b(?:https?:\/\/|www\.)[^\s)>\]]+/g;
const HTML_TAG = /<\/?[A-Za-z][^>\n]{0,500}>/g;
const TABLE_RULER = /^[ \t]*\|?[ \t]*:?-{3,}:?[ \t]*(?:\|[ \t]*:?-{3,}:?[ \t]*)*\|?[ \t]*(?:\n|$)/gm;
const LINE_PREFIX = /^[ \t]*(?:>[ \t]?)*[ \t]*(?:#{1,6}[ \t]+|[-*+][ \t]+|\d+[.)][ \t]+)?/gm;
const RULE = /^[ \t]*(?:[-*_][ \t]*){3,}$/gm;
const EMPHASIS = /(\*\*|\*|~~)(?=\S)([^\n]{0,500}?\S)\1/g;
/** Underscores only emphasise at word edges: CRUMB_CO_API_KEY keeps its own. */
const UNDERSCORE_EMPHASIS = /(?<!\w)(__|_)(?=\S)([^\n]{0,500}?\S)\1(?!\w)/g;
const INLINE_CODE = /`{1,10}([^`\n]{0,500})`{1,10}/g;
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
    .map((line) => trimCommasAndSpace(line).replace(/^[-*+][ \t]+/, '').replace(/[ \t]{2,}/g, ' '))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Whitespace and commas off both ends, in one pass each way (a regex anchored at the end retries from every comma). */
function trimCommasAndSpace(line: string): string {
  let start = 0;
  let end = line.length;
  while (start < end && isCommaOrSpace(line.charCodeAt(start))) start++;
  while (end > start && isCommaOrSpace(line.charCodeAt(end - 1))) end--;
  return start === 0 && end === line.length ? line : line.slice(start, end);
}

function isCommaOrSpace(code: number): boolean {
  return code === 0x2c || code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d || code === 0x0b || code === 0x0c || code === 0xa0 || (code >= 0x2000 && code <= 0x200a) || code === 0x3000 || code === 0x1680 || code === 0x2028 || code === 0x2029 || code === 0x202f || code === 0x205f || code === 0xfeff;
}
