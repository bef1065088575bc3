/**
 * The subject of a chat message: the words after "about", "on", "for"... when it has them,
 * else the message without its request words ("can you give me three headlines"), read
 * the way build objectives are read so the phrase banks of src/content fit it.
 */
import { type ObjectiveParts, parseObjective } from '../content/objective.js';
import { oneLine, withoutTrailing } from '../content/text.js';

const SUBJECT_AFTER = /\b(?:about|regarding|around|covering|on|for)\s+(?!me\b|us\b|you\b)(.{3,})$/i;
const REQUEST_WORDS =
  /\b(?:(?:can|could|would|will) you|please|give me|show me|tell me|help me(?: with)?|i need|we need|i want|we want|write|draft|compose|rewrite|suggest|some|a few|a couple of|one|two|three|four|five|six|\d+|more|another|headlines?|titles?|taglines?|slogans?|subject lines?|ideas?|topics?|suggestions?|calls? to action|ctas?|what is|what are|what's|define|definition of|meaning of|explain|paragraph|intro(?:duction)?|copy)\b/gi;

function cleanSubject(text: string): string {
  return withoutTrailing(cleanStart(text), '?.!,;:').trim();
}

function cleanStart(text: string): string {
  return oneLine(text)
    .replace(/^(?:we|i|they)(?:\s+(?:are|am|will|have|had|were|want to|plan to|need to)|'re|'m|'ll|'ve|\u2019re|\u2019m|\u2019ll|\u2019ve)?\s+/i, '')
    .replace(/^(?:our|the|my|your|a|an)\s+/i, '');
}

export function messageSubject(message: string): string {
  const clean = oneLine(message);
  const after = SUBJECT_AFTER.exec(clean);
  if (after) return cleanSubject(after[1] as string);
  return cleanSubject(clean.replace(REQUEST_WORDS, ' '));
}

/** The message's subject as objective parts; an empty subject falls back to `fallback`. */
export function messageTopic(message: string, fallback: string): ObjectiveParts {
  const subject = messageSubject(message);
  const parts = parseObjective(subject.length > 0 ? subject : fallback, fallback);
  // Objectives lower-case their first word; in a chat, a capital mid-sentence is a name ("Instagram").
  const names = properNames(subject.length > 0 ? message : fallback);
  if (names.size === 0) return parts;
  const restore = (text: string) => text.replace(/[\p{L}][\p{L}\p{N}'-]*/gu, (w) => names.get(w.toLowerCase()) ?? w);
  return { ...parts, topic: restore(parts.topic), focus: restore(parts.focus), focusShort: restore(parts.focusShort), topicNoun: restore(parts.topicNoun) };
}

/** Capitalised words that do not start a sentence, by their lower-case form. */
function properNames(text: string): Map<string, string> {
  const names = new Map<string, string>();
  for (const m of oneLine(text).matchAll(/(?<![.!?]\s|^)\b(\p{Lu}[\p{L}\p{N}'-]*)/gu)) {
    const word = m[1] as string;
    if (word !== 'I') names.set(word.toLowerCase(), word);
  }
  return names;
}
