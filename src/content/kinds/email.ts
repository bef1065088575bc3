/** Marketing email: subject (<= 78), preheader (<= 110), greeting, body, CTA, sign-off. */
import type { GenContext } from '../context.js';
import { type Block, br, em, link, p, para, strong, ul } from '../doc-model.js';
import { contentBlocks, ctaBlocks } from '../library.js';
import { ADVICE, CONTEXT, DETAIL, INSIGHT } from '../phrases.js';
import { fitText } from '../text.js';
import type { KindResult } from './kind.js';

export const SUBJECT_MAX = 78;
export const PREHEADER_MAX = 110;

const SUBJECTS: Record<string, string[]> = {
  playful: ['Psst\u2026 {focus} just got easier', 'Your new favourite read on {focus}'],
  formal: ['{FocusT}: our latest guidance', 'Insights on {focus} for {audience}'],
  bold: ['Stop guessing about {focus}', 'The {focus} playbook you need now'],
  friendly: ['A little help with {focus}', 'Your quick guide to {focus}'],
  neutral: ['{FocusT}: what is working now', 'Your quick guide to {focus}'],
};

const PREHEADERS = [
  'Inside: {num} practical ideas on {focus}, plus what the latest research says.',
  'What {audience} are doing about {focus}, and how you can start this week.',
  'A short read with clear next steps on {focus}.',
];

export function writeEmail(ctx: GenContext): KindResult {
  const { prose, tone } = ctx;
  const rng = prose.rng;
  const subject = ctx.suiteTitle(prose.pick(SUBJECTS[tone.id] ?? SUBJECTS.neutral!), SUBJECT_MAX);
  const preheader = fitText(prose.pick(PREHEADERS, { num: '3' }), PREHEADER_MAX);
  const greeting = rng.pick(tone.greetings);
  const signOffLine = rng.pick(tone.signOffs);
  const signature = `The ${ctx.brand} team`;
  const cta = ctx.callToAction();

  const body = prose.paragraph([CONTEXT, INSIGHT]);
  const secondary = ctx.secondarySentence();
  if (secondary) body.push(secondary);
  const blocks: Block[] = [
    p(em(preheader)),
    p(greeting),
    ctx.leadPara(subject, [`${prose.pick(tone.openers)} In this email, we share a few ideas on ${ctx.topic}.`]),
    ctx.claimPara(body),
    p(strong('Three things to try this week:')),
    ul(prose.many(ADVICE, 3)),
    ctx.claimPara(prose.paragraph([DETAIL]), 0),
  ];
  const facts = ctx.remainingClaims();
  if (facts) blocks.push(p('A few numbers worth knowing:'), facts);
  blocks.push(...contentBlocks(ctx.library));
  blocks.push(
    p('\u2192 ', link(cta.label, cta.url)),
    ...ctaBlocks(ctx.library, ctx.library.ctas[0]),
    para([prose.pick(tone.closers)]),
    p(signOffLine, br, signature),
  );

  return {
    title: subject,
    summary: preheader,
    blocks,
    kindData: { subject, preheader, greeting, signOff: `${signOffLine}\n${signature}`, callToAction: cta },
  };
}
