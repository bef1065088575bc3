/**
 * Reads the free-text objective: strips the instruction ("Write a blog post about ..."),
 * and finds the topic, a short focus phrase, the audience and the key words that titles,
 * body, hashtags and claims are built from.
 */
import { decapitalize, oneLine, withoutTrailing } from './text.js';
import { STOP_WORDS } from './vocabulary.js';

export interface ObjectiveParts {
  /** The subject as a phrase, user text kept as written: "sustainable packaging for shops". */
  topic: string;
  /** The topic seen from the brand in the third person ("our" -> "its"), for news and releases. */
  topicThirdPerson: string;
  /** Two to four key words, letters/digits/hyphens only: "sustainable packaging". */
  focus: string;
  /** The focus without its "for <audience>" tail ("Instagram"), for second mentions. */
  focusShort: string;
  /** Who it is for, from "... for X"; empty if the objective names nobody. */
  audience: string;
  /** The topic as a noun phrase: the focus when the topic is a clause ("how X can ..."). */
  topicNoun: string;
  /** Content words of the whole objective, in order, deduplicated. */
  keywords: string[];
  /** The objective asked to announce something, or was phrased "how to ...". */
  announce: boolean;
  howTo: boolean;
}

const INSTRUCTION =
  /^(?:please\s+)?(?:(?:write|create|draft|produce|generate|make|compose|prepare|publish|put together|give me|we need|i need)\s+)?(?:(?:a|an|the|some|one|two|three|four|five|\d+)\s+)?(?:(?:short|long|detailed|quick|brief|new|engaging|seo[- ]friendly|in-depth|comprehensive|simple|practical|step[- ]by[- ]step|technical|friendly)\s+)*(?:(?:blog\s+posts?|blog|articles?|posts?|guides?|landing\s+pages?|web\s+pages?|pages?|news\s+(?:stories|story|articles?|items?)|press\s+releases?|emails?|newsletters?|social(?:\s+media)?\s+posts?|tweets?|threads?|how[- ]to\s+(?:guides?|articles?|posts?)|tutorials?|introductions?|overviews?|primers?|explainers?|docs|documentation|checklists?|templates?|resources?|images?|illustrations?|series|pieces?|copy|content)\s+)?(?:(?:about|on|for|covering|explaining|describing|that\s+explains|introducing|regarding|around)\s+)?/i;

/** What an instruction can leave in front of its subject: "A guide to X" -> "to X", "Notes on X" -> "on X". */
const LEADING_LINKS = /^(?:(?:to|on|about|of|into|onto|regarding|concerning|covering)\s+)+/i;
/** An article that only repeats: "the the espresso", "a the espresso" -> "the espresso". */
const DOUBLED_ARTICLE = /^(?:(?:a|an|the)\s+)+(?=(?:a|an|the)\s+)/i;

/** The subject without the instruction and the prepositions or articles it left dangling. */
function stripInstruction(text: string): string {
  const rest = text.replace(INSTRUCTION, '');
  const stripped = rest.replace(LEADING_LINKS, '').replace(DOUBLED_ARTICLE, '');
  // A subject made only of such words ("About") is better kept than lost.
  return stripped.trim().length > 0 ? stripped : rest;
}

const ANNOUNCE = /^(?:announc(?:e|es|ing)|launch(?:es|ing)?|unveil(?:s|ing)?)\s+/i;
const HOW_TO = /^how\s+to\s+/i;
const WORD = /[\p{L}\p{N}][\p{L}\p{N}'\u2019-]*/gu;
const MAX_TOPIC_WORDS = 14;

function words(text: string): string[] {
  return text.match(WORD) ?? [];
}

/** Letters, digits, hyphens and apostrophes only: safe to repeat verbatim anywhere. */
export function plainWords(text: string): string {
  return words(text).join(' ');
}

function firstSentence(text: string): string {
  const m = /^(.{12,}?[.!?])\s/.exec(text);
  return m ? (m[1] as string) : text;
}

/** `fallback` (the brand name) stands in for an empty objective. */
export function parseObjective(objective: string, fallback: string): ObjectiveParts {
  const clean = oneLine(objective);
  let topic = stripInstruction(firstSentence(clean));
  if (topic.length === 0) topic = clean || fallback;
  const announceMatch = ANNOUNCE.exec(topic);
  const announce = announceMatch !== null;
  if (announceMatch) topic = topic.slice(announceMatch[0].length);
  const howTo = HOW_TO.test(topic);
  topic = withoutTrailing(topic, '.!?;:,').trim();
  if (/^["\u201c].*["\u201d]$/.test(topic)) topic = topic.slice(1, -1).trim();
  const topicWords = topic.split(' ');
  if (topicWords.length > MAX_TOPIC_WORDS) topic = topicWords.slice(0, MAX_TOPIC_WORDS).join(' ');
  // Sentences read "we look at <topic>": a leading "How"/"The" is lower-cased, an imperative becomes a gerund.
  const first = (topicWords[0] ?? '').toLowerCase();
  if (COMMON_VERBS.has(first)) topic = gerundStart(topic, false);
  // A capital that only starts the sentence says nothing ("Sustainable packaging ..."); acronyms keep theirs.
  else if (STOP_WORDS.has(first) || clean.startsWith(topic)) topic = decapitalize(topic);

  const keywords = uniqueContentWords(words(stripInstruction(clean)));
  const clause = howTo ? null : clauseParts(topic);
  const focus = clause?.focus || gerundStart(focusPhrase(words(topic.replace(HOW_TO, ''))), howTo);
  return {
    topic,
    topicThirdPerson: topic.replace(/\bour\b/gi, 'its').replace(/\bwe\b/gi, 'it').replace(/\bus\b/g, 'it'),
    focus: focus || keywords.slice(0, 2).join(' '),
    topicNoun: (clause ? clause.focus : '') || (/^(?:how|why|when|where|what|ways)\s/i.test(topic) && focus ? focus : topic),
    focusShort: clause?.action || focus || keywords.slice(0, 2).join(' '),
    audience: audienceOf(topic) || clause?.subject || '',
    keywords,
    announce,
    howTo,
  };
}

const CLAUSE = /^(?:how|why|when|where|what|ways)\s+(.+?)\s+(?:can|could|should|must|might|may|will|would|need\s+to|have\s+to|ought\s+to|to)\s+(\S+)\s+(.+)$/i;
const LIGHT_VERBS = new Set(['use', 'get', 'have', 'make', 'do', 'take', 'leverage', 'adopt', 'try']);
const PRONOUNS = new Set(['you', 'we', 'they', 'i', 'it', 'he', 'she', 'one', 'people', 'anyone', 'everyone']);

/**
 * "how small bakeries can use Instagram to attract ..." -> focus "Instagram for small
 * bakeries", subject "small bakeries"; "why teams should document decisions" -> focus
 * "documenting decisions for teams".
 */
function clauseParts(topic: string): { focus: string; action: string; subject: string } | null {
  const m = CLAUSE.exec(topic);
  if (!m) return null;
  const subjectWords = words(m[1] as string).filter((w) => !['a', 'an', 'the', 'your', 'our'].includes(w.toLowerCase()));
  const subject = subjectWords.length <= 3 && !PRONOUNS.has(subjectWords.join(' ').toLowerCase()) ? subjectWords.join(' ') : '';
  const object = focusPhrase(words(m[3] as string), 3);
  if (!object) return null;
  const verb = (m[2] as string).toLowerCase();
  const action = LIGHT_VERBS.has(verb) ? object : gerundStart(`${verb} ${object}`, true);
  return { focus: subject ? `${action} for ${subject}` : action, action, subject };
}

/** Head nouns that say little on their own: "the benefits of remote work" -> "remote work". */
const VAGUE_HEADS = new Set(
  'benefits importance role future impact basics power value cost costs rise art science state guide introduction ins outs pros cons secrets keys opening launch release'.split(' '),
);

function uniqueContentWords(all: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const w of all) {
    const lower = w.toLowerCase();
    if (STOP_WORDS.has(lower) || seen.has(lower) || lower.length < 2) continue;
    seen.add(lower);
    out.push(w);
  }
  return out;
}

/** The first run of content words: "sustainable packaging for shops" -> "sustainable packaging". */
function focusPhrase(tokens: readonly string[], max = 4): string {
  const out: string[] = [];
  for (const token of tokens) {
    const lower = token.toLowerCase();
    const stop = STOP_WORDS.has(lower);
    if (lower === 'of' && out.length === 1 && VAGUE_HEADS.has((out[0] as string).toLowerCase())) {
      out.length = 0; // skip "benefits of"
      continue;
    }
    if (stop && out.length > 0) break;
    if (!stop) out.push(token);
    if (out.length === max) break;
  }
  return out.join(' ');
}

const COMMON_VERBS = new Set(
  ('improve build grow increase reduce boost start choose plan bake cook manage cut save learn find launch run ' +
    'measure optimize optimise write design set keep attract win hire train sell market scale automate protect ' +
    'prepare organize organise clean fix choose track lower raise speed simplify streamline master').split(' '),
);

/** A focus that starts with a verb reads better as a gerund: "bake sourdough" -> "baking sourdough". */
function gerundStart(focus: string, howTo: boolean): string {
  const space = focus.indexOf(' ');
  const first = space < 0 ? focus : focus.slice(0, space);
  const lower = first.toLowerCase();
  if (!howTo && !COMMON_VERBS.has(lower)) return focus;
  if (lower.endsWith('ing') || lower.length < 2) return focus;
  let stem = lower;
  if (/ie$/.test(stem)) stem = `${stem.slice(0, -2)}y`;
  else if (/[^aeiou]e$/.test(stem) && stem !== 'be') stem = stem.slice(0, -1);
  else if (/^[^aeiou]*[aeiou][bdgmnprt]$/.test(stem)) stem += stem.charAt(stem.length - 1);
  return `${stem}ing${space < 0 ? '' : focus.slice(space)}`;
}

/** "... for small businesses in Europe" -> "small businesses". */
export function audienceOf(topic: string): string {
  const at = topic.search(/\bfor\s/i);
  if (at < 0) return '';
  const after = words(topic.slice(at + 4));
  const out: string[] = [];
  for (const token of after) {
    const lower = token.toLowerCase();
    if (out.length === 0 && (lower === 'a' || lower === 'an' || lower === 'the' || lower === 'your' || lower === 'our')) continue;
    if (STOP_WORDS.has(lower) || out.length === 4) break;
    out.push(token);
  }
  // A single word that does not look plural is more likely a purpose ("for growth") than a group.
  if (out.length === 1 && !/s$/i.test(out[0] as string)) return '';
  return out.join(' ');
}
