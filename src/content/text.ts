/** Small string helpers shared by the generator. No regex-heavy per-character work here. */

const SMALL_WORDS = new Set([
  'a', 'an', 'the', 'and', 'but', 'or', 'nor', 'for', 'on', 'at', 'to', 'from', 'by', 'of',
  'in', 'into', 'with', 'as', 'vs', 'via', 'per', 'than',
]);

/** Collapses every run of whitespace (newlines included) into one space and trims. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export function capitalize(text: string): string {
  return text.length === 0 ? text : text.charAt(0).toUpperCase() + text.slice(1);
}

/** Lower-cases the first letter unless the first word looks like a name or acronym. */
export function decapitalize(text: string): string {
  if (text.length < 2) return text.toLowerCase();
  const second = text.charAt(1);
  if (second !== second.toLowerCase()) return text; // "SEO", "AI"
  return text.charAt(0).toLowerCase() + text.slice(1);
}

function capitalizeWord(word: string): string {
  // Hyphenated compounds get each part capitalised: "e-commerce" -> "E-Commerce".
  if (word.indexOf('-') < 0) return capitalize(word);
  return word.split('-').map(capitalize).join('-');
}

/** Headline-style title case; keeps words that already carry capitals (iPhone, SEO). */
export function titleCase(text: string): string {
  const words = text.split(' ');
  const last = words.length - 1;
  return words
    .map((word, i) => {
      const lower = word.toLowerCase();
      if (i !== 0 && i !== last && SMALL_WORDS.has(lower)) return lower;
      return capitalizeWord(word);
    })
    .join(' ');
}

/** URL form of a title: lowercase a-z0-9 and single hyphens, at most `max` characters. */
export function slugify(text: string, max = 80): string {
  const plain = text.normalize('NFKD').toLowerCase();
  let out = '';
  let dash = false;
  for (let i = 0; i < plain.length; i++) {
    const c = plain.charCodeAt(i);
    const alnum = (c >= 97 && c <= 122) || (c >= 48 && c <= 57);
    if (alnum) {
      if (dash && out.length > 0) out += '-';
      out += plain.charAt(i);
      dash = false;
    } else if (c < 0x300 || c > 0x36f) {
      dash = true; // combining accents are dropped silently, anything else separates words
    }
  }
  if (out.length > max) {
    out = out.slice(0, max);
    const cut = out.lastIndexOf('-');
    if (cut > max / 2) out = out.slice(0, cut);
  }
  return out.replace(/-+$/, '') || 'content';
}

/**
 * The text without the run of `chars` at its end, found by one scan back: `/[.!?]+$/` retries
 * from every mark of a long run, which costs n² on a caller's 4,000 colons.
 */
export function withoutTrailing(text: string, chars: string): string {
  let end = text.length;
  while (end > 0 && chars.includes(text[end - 1] as string)) end--;
  return end === text.length ? text : text.slice(0, end);
}

/** Cuts text to at most `max` characters at a word boundary, ending with an ellipsis. */
export function fitText(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 1) return text.slice(0, Math.max(0, max));
  let cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  if (space > max / 3) cut = cut.slice(0, space);
  return `${cut.replace(/[\s,;:.!?\u2014-]+$/, '')}\u2026`;
}

/** Code-point length, which is how the social platforms count characters. */
export function charLength(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xdc00 || c > 0xdfff) n++; // low surrogates belong to the previous code point
  }
  return n;
}

/** "a", "a and b", "a, b and c". */
export function joinList(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** Letters of other scripts count; Latin-1 symbols, dashes, arrows and bullets do not. */
function isWordCharAbove127(c: number): boolean {
  return c > 0xbf && !(c >= 0x2000 && c <= 0x2bff);
}

/** Counts words: whitespace-separated runs that hold at least one letter or digit. */
export function countWordsIn(text: string): number {
  let count = 0;
  let inWord = false;
  let hasAlnum = false;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 32;
    if (c === 32 || c === 10 || c === 9 || c === 13) {
      if (inWord && hasAlnum) count++;
      inWord = false;
      hasAlnum = false;
    } else {
      inWord = true;
      if ((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || isWordCharAbove127(c)) hasAlnum = true;
    }
  }
  return count;
}

/** "small bakeries" -> "SmallBakeries"; letters and digits only, for hashtags and identifiers. */
export function pascalWords(text: string): string {
  const words = text.match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.map((w) => (w === w.toUpperCase() ? w : capitalize(w.toLowerCase()))).join('');
}

/** camelCase identifier from arbitrary text (ASCII only), for code samples. */
export function camelIdent(text: string, fallback: string): string {
  const ident = slugify(text, 40)
    .split('-')
    .map((w, i) => (i === 0 ? w : capitalize(w)))
    .join('');
  return /^[a-z]/.test(ident) ? ident : fallback;
}
