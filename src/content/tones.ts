/**
 * Tone profiles: the brand kit's free-text tone (and voice) is mapped to one of five families,
 * each with its own openers, transitions, asides and closing lines. Templates use the
 * placeholders documented in prose.ts.
 */

export type ToneId = 'neutral' | 'playful' | 'formal' | 'friendly' | 'bold';

export interface ToneProfile {
  id: ToneId;
  openers: readonly string[];
  transitions: readonly string[];
  asides: readonly string[];
  closers: readonly string[];
  conclusionHeadings: readonly string[];
  ctaLabels: readonly string[];
  greetings: readonly string[];
  signOffs: readonly string[];
  /** Social-post hooks. */
  hooks: readonly string[];
  /** Chance that a sentence gets a transition, an aside is added, a short sentence ends with "!". */
  transitionRate: number;
  asideRate: number;
  exclaimRate: number;
}

const TONE_WORDS: ReadonlyArray<[ToneId, readonly string[]]> = [
  ['playful', ['playful', 'fun', 'witty', 'cheeky', 'humor', 'humour', 'quirky', 'light', 'silly', 'irreverent', 'whimsical']],
  ['formal', ['formal', 'professional', 'corporate', 'authoritative', 'serious', 'academic', 'technical', 'precise', 'measured', 'institutional']],
  ['bold', ['bold', 'confident', 'energetic', 'inspiring', 'passionate', 'punchy', 'direct', 'daring', 'provocative', 'urgent']],
  ['friendly', ['friendly', 'warm', 'conversational', 'casual', 'approachable', 'helpful', 'empathetic', 'kind', 'supportive', 'relaxed']],
];

export function detectTone(tone: string, voice: string): ToneId {
  for (const text of [tone.toLowerCase(), voice.toLowerCase()]) {
    for (const [id, words] of TONE_WORDS) {
      for (const word of words) if (text.includes(word)) return id;
    }
  }
  return 'neutral';
}

const PROFILES: Record<ToneId, ToneProfile> = {
  neutral: {
    id: 'neutral',
    openers: [
      'Questions about {focus} come up in almost every conversation we have with {audience}.',
      'There is no shortage of advice about {focus}, but much of it is hard to act on.',
      '{Focus} can feel like a moving target.',
      'Few subjects raise as many practical questions as {focus}.',
    ],
    transitions: ['In practice,', 'At the same time,', 'That said,', 'As a result,', 'Just as important,'],
    asides: ['It is worth keeping in mind.', 'That is a useful rule of thumb.', 'The difference adds up.'],
    closers: ['The next step is yours.', 'Pick one idea from this page and try it this week.', 'Small steps, taken consistently, go a long way.'],
    conclusionHeadings: ['Conclusion', 'The bottom line', 'Key takeaways'],
    ctaLabels: ['Learn more', 'Get started', 'See how it works'],
    greetings: ['Hello,'],
    signOffs: ['Best regards,'],
    hooks: ['{Focus}: what actually works.', 'A clear look at {focus}.', 'What we learned about {focus}.'],
    transitionRate: 0.25,
    asideRate: 0.1,
    exclaimRate: 0,
  },
  playful: {
    id: 'playful',
    openers: [
      'Let\u2019s talk about {focus} \u2014 and no, it is not as dull as it sounds.',
      'Confession: we could talk about {focus} all day.',
      'If {focus} ever made your head spin, pull up a chair.',
      'Good news: getting {focus} right is a lot less scary than it looks.',
    ],
    transitions: ['Plot twist:', 'Here\u2019s the fun part:', 'Bonus:', 'Real talk:', 'Fair warning:'],
    asides: ['(Yes, really.)', 'Stay with us here.', 'We promise it gets easier.', 'No magic wand required.'],
    closers: ['Now go make {focus} fun!', 'Your future self will thank you.', 'Go on, give it a try!'],
    conclusionHeadings: ['Wrapping it up', 'The TL;DR', 'That\u2019s a wrap'],
    ctaLabels: ['Let\u2019s do this', 'Take it for a spin', 'Show me how'],
    greetings: ['Hey there!', 'Hi friend!'],
    signOffs: ['High fives,', 'Cheers,'],
    hooks: ['Hot take: getting {focus} right does not have to be hard.', 'Psst. {Focus} just got easier.', 'Ready for a fresh take on {focus}?'],
    transitionRate: 0.35,
    asideRate: 0.3,
    exclaimRate: 0.25,
  },
  formal: {
    id: 'formal',
    openers: [
      'Getting {focus} right has become a strategic priority for {audience}.',
      'This article examines {focus} and its practical implications.',
      'Decision-makers increasingly regard {focus} as a core capability rather than a discretionary activity.',
      'The case for a deliberate approach to {focus} has never been stronger.',
    ],
    transitions: ['Furthermore,', 'Consequently,', 'In addition,', 'Notably,', 'Accordingly,'],
    asides: ['This point merits emphasis.', 'The implications are significant.', 'The evidence is consistent on this point.'],
    closers: [
      'Organizations that act deliberately on {focus} will be best positioned for the years ahead.',
      'A structured, measured approach remains the most reliable path forward.',
    ],
    conclusionHeadings: ['Conclusion', 'Summary and next steps', 'Recommendations'],
    ctaLabels: ['Request a consultation', 'Read the full report', 'Contact our team'],
    greetings: ['Dear reader,'],
    signOffs: ['Kind regards,', 'Sincerely,'],
    hooks: ['New insights on {focus} for {audience}.', 'Our latest analysis of {focus}.', 'Key findings on {focus}.'],
    transitionRate: 0.3,
    asideRate: 0.05,
    exclaimRate: 0,
  },
  friendly: {
    id: 'friendly',
    openers: [
      'If you have been wondering where to start with {focus}, you are in good company.',
      'We hear lots of questions about {focus}, so we put our favourite answers in one place.',
      'Let\u2019s walk through {focus} together, one step at a time.',
      'Here is a friendly, no-jargon look at {focus}.',
    ],
    transitions: ['Here\u2019s a tip:', 'In our experience,', 'Honestly,', 'Better still,', 'The good news:'],
    asides: ['You\u2019ve got this.', 'Take it one step at a time.', 'There is no rush.'],
    closers: ['We\u2019d love to hear how it goes.', 'Take the first step today \u2014 we\u2019re cheering you on.'],
    conclusionHeadings: ['Final thoughts', 'Where to go from here', 'Wrapping up'],
    ctaLabels: ['Get started for free', 'Talk to our team', 'Explore the guide'],
    greetings: ['Hi there,', 'Hello friend,'],
    signOffs: ['Warmly,', 'All the best,'],
    hooks: ['Thinking about {focus}? Here\u2019s where to start.', 'A little help with {focus}.', 'Let\u2019s make {focus} easier, together.'],
    transitionRate: 0.3,
    asideRate: 0.15,
    exclaimRate: 0.08,
  },
  bold: {
    id: 'bold',
    openers: [
      'Treating {focus} as optional is no longer an option.',
      'Here is the truth about {focus}: the winners are already moving.',
      'It is time to stop treating {focus} as a side project.',
      'Playing it safe with {focus} is the riskiest move of all.',
    ],
    transitions: ['Make no mistake:', 'Here\u2019s the point:', 'Bottom line:', 'The takeaway:', 'Simply put,'],
    asides: ['No excuses.', 'That matters.', 'Act on it.'],
    closers: ['The time to act on {focus} is now.', 'Lead, don\u2019t follow.', 'Start today.'],
    conclusionHeadings: ['The bottom line', 'Your move', 'What to do now'],
    ctaLabels: ['Start now', 'Claim your spot', 'Get ahead today'],
    greetings: ['Hi,'],
    signOffs: ['Onward,', 'Let\u2019s go,'],
    hooks: ['Stop guessing about {focus}.', 'The rules for {focus} are changing. Fast.', 'The playbook for {focus} just changed.'],
    transitionRate: 0.25,
    asideRate: 0.2,
    exclaimRate: 0.15,
  },
};

export function toneProfile(id: ToneId): ToneProfile {
  return PROFILES[id];
}
