/** The five text-to-speech voices of the listen version, with the pitch and pace they render at. */

export const VOICE_IDS = ['aria', 'brook', 'cedar', 'dune', 'ember'] as const;
export type VoiceId = (typeof VOICE_IDS)[number];

export interface Voice {
  readonly id: VoiceId;
  readonly name: string;
  readonly gender: 'female' | 'male' | 'neutral';
  readonly accent: string;
  readonly description: string;
  /** Base pitch (fundamental frequency) of the voice. */
  readonly pitchHz: number;
  /** Speaking pace; pauses at punctuation come on top of it. */
  readonly wordsPerMinute: number;
}

export const VOICES: readonly Voice[] = Object.freeze([
  {
    id: 'aria', name: 'Aria', gender: 'female', accent: 'American English',
    description: 'Bright and clear; suits product pages, how-tos and social posts.',
    pitchHz: 225, wordsPerMinute: 172,
  },
  {
    id: 'brook', name: 'Brook', gender: 'female', accent: 'British English',
    description: 'Warm, measured storyteller for long-form blog posts and resources.',
    pitchHz: 196, wordsPerMinute: 155,
  },
  {
    id: 'cedar', name: 'Cedar', gender: 'male', accent: 'American English',
    description: 'Deep and calm; reads documentation and press releases with authority.',
    pitchHz: 108, wordsPerMinute: 150,
  },
  {
    id: 'dune', name: 'Dune', gender: 'neutral', accent: 'Australian English',
    description: 'Even and friendly; a brisk newsreader for news and summaries.',
    pitchHz: 160, wordsPerMinute: 180,
  },
  {
    id: 'ember', name: 'Ember', gender: 'male', accent: 'Irish English',
    description: 'Lively and upbeat; made for email campaigns and marketing copy.',
    pitchHz: 132, wordsPerMinute: 188,
  },
].map((voice) => Object.freeze(voice as Voice)));

export function isVoiceId(id: unknown): id is VoiceId {
  return typeof id === 'string' && (VOICE_IDS as readonly string[]).includes(id);
}

export function getVoice(id: string): Voice {
  const voice = VOICES.find((v) => v.id === id);
  if (!voice) throw new Error(`Unknown voice ${JSON.stringify(id)}; expected one of ${VOICE_IDS.join(', ')}`);
  return voice;
}
