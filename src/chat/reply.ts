/**
 * The assistant's reply: deterministic for (seed, chat, message index), written in the
 * target's tone with the phrase banks of src/content, answering what the message asks
 * (intent) about what it is about (topic), and naming the library items it relates to.
 */
import { plainWords } from '../content/objective.js';
import { ADVICE, ANGLES, BRAND_LINES, CONTEXT, DETAIL, EXAMPLE, INSIGHT } from '../content/phrases.js';
import { Prose, type ProseVars } from '../content/prose.js';
import { capitalize, fitText, oneLine } from '../content/text.js';
import { detectTone, type ToneId, toneProfile } from '../content/tones.js';
import type { TargetSnapshot } from '../content/types.js';
import { Rng } from '../random/rng.js';
import type { ChatReferenceRecord, LibraryItemRecord, LibraryItemType } from '../store/records.js';
import { contentWords } from '../suggestions/stop-words.js';
import { type ChatIntent, detectIntent } from './intent.js';
import { firstOfType, matchLibrary } from './library-match.js';
import { messageTopic } from './topic.js';

export interface ReplyInput {
  seed: string;
  chatId: string;
  /** Position of the reply in the conversation: the same chat gets a fresh reply each turn. */
  index: number;
  target: TargetSnapshot;
  library: readonly LibraryItemRecord[];
  message: string;
  /** The user's previous message: a follow-up such as "another one?" keeps its subject. */
  previousMessage?: string;
  year: number;
}

export interface ComposedReply {
  content: string;
  references: ChatReferenceRecord[];
  intent: ChatIntent;
}

const TONE_TIPS: Record<ToneId, string> = {
  neutral: 'Keep it clear and even: plain words, no hype, one idea per sentence.',
  playful: 'Keep it light: short sentences, a wink here and there, the odd exclamation mark.',
  formal: 'Keep it precise: complete sentences, measured claims, no slang.',
  friendly: 'Keep it warm: speak to the reader as \u201cyou\u201d, with short sentences and everyday words.',
  bold: 'Keep it punchy: strong verbs, short lines and a clear point of view.',
};

const OFFERS = 'topic ideas, headlines, a draft paragraph or a call to action';

export function composeReply(input: ReplyInput): ComposedReply {
  const { target } = input;
  const brand = oneLine(target.name) || 'your brand';
  const previous = input.previousMessage;
  // "Another one?" has no subject of its own: it continues the previous request.
  const followUp = contentWords(input.message).length === 0 && previous !== undefined;
  let intent = detectIntent(input.message);
  if (followUp && (intent === 'question' || intent === 'statement')) intent = detectIntent(previous);
  // Pleasantries and questions about the brand itself keep the subject of the conversation.
  const aboutConversation = intent === 'greeting' || intent === 'thanks' || intent === 'voice' || intent === 'about';
  const subject = followUp || aboutConversation ? (previous ?? '') : input.message;
  const fallback = target.brandKit.seo.primaryKeywords[0] ?? (plainWords(target.description) || brand);
  const topic = messageTopic(subject, fallback);
  const tone = toneProfile(detectTone(target.brandKit.tone, target.brandKit.voice));
  const rng = new Rng(input.seed, input.chatId, 'reply', input.index);
  const vars: ProseVars = {
    topic: topic.topic,
    focus: topic.focus || fallback,
    focusShort: topic.focusShort || topic.focus || fallback,
    audience: topic.audience || 'your readers',
    brand,
    year: String(input.year),
  };
  const prose = new Prose(vars, tone, rng);
  const matches = matchLibrary(followUp ? (previous as string) : input.message, input.library);
  const used: LibraryItemRecord[] = [];
  const use = (item: LibraryItemRecord | undefined): LibraryItemRecord | undefined => {
    if (item && !used.includes(item)) used.push(item);
    return item;
  };

  const lines: string[] = [];
  switch (intent) {
    case 'greeting':
      lines.push(`${rng.pick(tone.greetings)} I\u2019m the ${brand} assistant, and I write in ${brand}\u2019s voice: ${oneLine(target.brandKit.voice)}, with a ${oneLine(target.brandKit.tone)} tone.`);
      lines.push(`Ask me for ${OFFERS}.`);
      break;
    case 'thanks':
      lines.push(`You\u2019re welcome. ${prose.pick(tone.closers)}`);
      lines.push(`Shall we keep going on ${vars.focus}? I can suggest ${OFFERS}.`);
      break;
    case 'headline': {
      const titles = rng.sample(ANGLES, 3);
      lines.push(`Here are headline options on ${vars.focus}:`);
      for (const angle of titles) lines.push(`- ${prose.pick(angle.titles)}`);
      lines.push(`- ${prose.pick(tone.hooks)}`);
      break;
    }
    case 'ideas': {
      const ideas = rng.sample(ANGLES, 3);
      lines.push(`Three ideas on ${vars.focus} for ${vars.audience}:`);
      for (const angle of ideas) lines.push(`- ${prose.pick(angle.titles)} (${angle.label.toLowerCase()}): ${prose.pick(angle.headings)}.`);
      lines.push(prose.pick(ADVICE));
      break;
    }
    case 'cta': {
      const cta = use(matches.get('cta')?.item ?? firstOfType(input.library, 'cta'));
      if (cta) lines.push(`Use ${brand}\u2019s saved call to action: \u201c${oneLine(cta.content)}\u201d${cta.url ? ` (${cta.url})` : ''}.`);
      lines.push(`${cta ? 'Alternatives' : 'Options'} in ${brand}\u2019s tone: ${rng.sample(tone.ctaLabels, 3).map((l) => `\u201c${l}\u201d`).join(', ')}.`);
      lines.push(`Put it right after the point where ${vars.audience} see the value of ${vars.focus}.`);
      break;
    }
    case 'voice':
      lines.push(`${brand} sounds ${oneLine(target.brandKit.voice)}, with a ${oneLine(target.brandKit.tone)} tone.`);
      lines.push(TONE_TIPS[tone.id]);
      lines.push(`An opening line in that voice: \u201c${prose.pick(tone.openers)}\u201d`);
      break;
    case 'about': {
      const description = oneLine(target.description);
      lines.push(description ? `${brand}: ${description}` : `${brand} has no description in its profile yet.`);
      const blurb = use(matches.get('product_blurb')?.item ?? firstOfType(input.library, 'product_blurb'));
      if (blurb) lines.push(`From the product blurbs: ${oneLine(blurb.content)}`);
      lines.push(prose.pick(BRAND_LINES));
      break;
    }
    case 'define': {
      const term = use(matches.get('glossary_term')?.item);
      if (term) lines.push(`In ${brand}\u2019s glossary, **${oneLine(term.name)}** means: ${oneLine(term.content)}`);
      else lines.push(`${capitalize(vars.focus as string)} is not in ${brand}\u2019s glossary yet, so here is the short version. ${prose.pick(DETAIL)}`);
      lines.push(prose.pick(INSIGHT));
      break;
    }
    case 'draft':
      lines.push(`Here is a draft on ${vars.focus} in ${brand}\u2019s voice:`);
      lines.push(prose.paragraph([tone.openers, CONTEXT, INSIGHT, ADVICE]).join(' '));
      break;
    case 'question':
      lines.push(`On ${vars.focus}: ${prose.pick(INSIGHT)} ${prose.pick(ADVICE)}`);
      lines.push(prose.pick(EXAMPLE));
      break;
    case 'statement':
      lines.push(`Noted: ${vars.topic}. ${prose.pick(DETAIL)} ${prose.pick(ADVICE)}`);
      lines.push(`Would you like ${OFFERS} on ${vars.focus}?`);
      break;
  }
  lines.push(...libraryMentions(matches, used, use));
  return { content: fitText(lines.join('\n'), 3800), references: used.map(reference), intent };
}

/** Items the message relates to that the answer has not used yet: at most one per type. */
function libraryMentions(
  matches: ReturnType<typeof matchLibrary>,
  used: readonly LibraryItemRecord[],
  use: (item: LibraryItemRecord | undefined) => LibraryItemRecord | undefined,
): string[] {
  const out: string[] = [];
  const fresh = (type: LibraryItemType) => {
    const item = matches.get(type)?.item;
    return item && !used.includes(item) ? use(item) : undefined;
  };
  const term = fresh('glossary_term');
  if (term) out.push(`Glossary: **${oneLine(term.name)}**: ${oneLine(term.content)}`);
  const blurb = fresh('product_blurb');
  if (blurb) out.push(`Worth mentioning, from your product blurbs: ${oneLine(blurb.content)}`);
  const cta = fresh('cta');
  if (cta) out.push(`A call to action that fits: \u201c${oneLine(cta.content)}\u201d${cta.url ? ` (${cta.url})` : ''}.`);
  const asset = fresh('brand_asset');
  if (asset) out.push(`Brand asset to use: ${oneLine(asset.name)}${asset.url ? ` (${asset.url})` : ''}.`);
  return out;
}

function reference(item: LibraryItemRecord): ChatReferenceRecord {
  return { libraryItemId: item.id, type: item.type, name: item.name };
}
