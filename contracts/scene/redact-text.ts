const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const UPPER = LOWER.toUpperCase();
/** The API's own magic input (a `[fail:<stage>]` marker) keeps its meaning: it is kept as it is. */
const MARKER = /(\[fail:[a-z]+\])/;

/**
 * User text replaced by generated text of the same shape and length: each letter by a letter
 * of the same case, each digit by a digit, everything else (spaces, punctuation, hyphens) kept.
 * The letters come from a fixed generator that reads nothing of the text (so nothing of it can
 * be recovered), and the same recorded text always gets the same replacement within one scene,
 * so a slug a build names stays the slug its target has.
 */
export function sameShapeText(): (text: string) => string {
  let state = 0x2545f491;
  const next = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 0x1_0000_0000;
  };
  const seen = new Map<string, string>();
  const replace = (part: string) => [...part].map((c) => (LOWER.includes(c) ? LOWER[Math.floor(next() * 26)] : UPPER.includes(c) ? UPPER[Math.floor(next() * 26)] : /[0-9]/.test(c) ? String(Math.floor(next() * 10)) : /\p{L}/u.test(c) ? LOWER[Math.floor(next() * 26)] : c)).join('');
  return (text: string) => {
    let out = seen.get(text);
    if (out === undefined) {
      out = text.split(MARKER).map((part, i) => (i % 2 === 1 ? part : replace(part))).join('');
      seen.set(text, out);
    }
    return out;
  };
}
