/**
 * What a chat message asks for, by simple keyword rules checked in order: the first rule
 * that matches wins, so "write three headlines" is a headline request, not a draft.
 */
export type ChatIntent =
  | 'greeting'
  | 'thanks'
  | 'headline'
  | 'ideas'
  | 'cta'
  | 'voice'
  | 'about'
  | 'define'
  | 'draft'
  | 'question'
  | 'statement';

const RULES: ReadonlyArray<[ChatIntent, RegExp]> = [
  ['headline', /\b(?:headlines?|titles?|subject lines?|taglines?|slogans?)\b/i],
  ['ideas', /\b(?:ideas?|topics?|brainstorm\w*|suggest\w*|what (?:should|could|can) (?:we|i) (?:write|post|publish|cover))\b/i],
  ['cta', /\b(?:calls? to action|cta|ctas|sign[- ]?ups?|buttons?|conversions?)\b/i],
  ['voice', /\b(?:tone|voice|style guide|sound like|how should (?:we|i) sound|brand voice)\b/i],
  ['about', /\b(?:who (?:are|is) (?:you|we|the brand)|about (?:us|you|the brand|the company)|what do (?:you|we) (?:do|sell|offer|make))\b/i],
  ['define', /\b(?:what (?:is|are|does)|what's|define|definition of|meaning of|explain)\b/i],
  ['draft', /\b(?:write|draft|compose|rewrite|paragraph|intro(?:duction)?|blurb|copy for|caption)\b/i],
];

const GREETING = /^\s*(?:hi|hello|hey|hiya|good (?:morning|afternoon|evening)|greetings)\b/i;
const THANKS = /\b(?:thanks|thank you|cheers|much appreciated|great, thanks)\b/i;

export function detectIntent(message: string): ChatIntent {
  const words = message.trim().split(/\s+/).length;
  // Pleasantries only count as such when they are most of the message.
  if (words <= 6 && THANKS.test(message)) return 'thanks';
  for (const [intent, pattern] of RULES) if (pattern.test(message)) return intent;
  if (words <= 5 && GREETING.test(message)) return 'greeting';
  return /\?\s*$/.test(message) ? 'question' : 'statement';
}
