/** Web page: hero headline and subheadline, feature blocks, how it works, call to action. */
import type { GenContext } from '../context.js';
import { type Block, h2, h3, link, ol, p, para } from '../doc-model.js';
import { contentBlocks, ctaBlocks } from '../library.js';
import { CONTEXT, DETAIL, INSIGHT } from '../phrases.js';
import type { KindResult } from './kind.js';

const HEADLINES = [
  '{FocusT}, Made Simple',
  'Better {FocusT} Starts Here',
  'The Smarter Way to Approach {FocusT}',
  'Everything You Need for {FocusT}',
  '{FocusT} Without the Guesswork',
];

const BENEFITS = [
  'without the guesswork',
  'in less time and with less stress',
  'with clear steps and real results',
  'from the first idea to measurable results',
];

const FEATURES = [
  { title: 'Clear guidance', body: 'Step-by-step advice on {focus} that anyone on your team can follow.' },
  { title: 'Built for {audience}', body: 'Every part of the experience is shaped around what {audience} actually need.' },
  { title: 'Proven approach', body: 'Methods refined with real teams, so you skip the trial and error.' },
  { title: 'Measurable results', body: 'Simple reporting shows what is working and where to focus next.' },
  { title: 'Expert support', body: 'The {brand} team is on hand whenever you need a second opinion.' },
  { title: 'Flexible by design', body: 'Start small, scale up when you are ready, and change course at any time.' },
  { title: 'Fast to start', body: 'Get up and running in days, not months, with sensible defaults.' },
];

const STEPS = [
  'Tell us about your goals for {focus}.',
  'Get a plan tailored to {audience}, with clear priorities.',
  'Put the plan to work and track the results as you go.',
  'Review, refine and keep improving with the {brand} team.',
];

const CLOSING_HEADINGS: Record<string, string> = {
  playful: 'Ready when you are',
  formal: 'Speak with our team',
  bold: 'Make your move',
  friendly: 'Let\u2019s get started together',
  neutral: 'Ready to get started?',
};

export function writeWebPage(ctx: GenContext): KindResult {
  const { prose, premium } = ctx;
  const headline = ctx.suiteTitle(prose.pick(HEADLINES));
  const subheadline = `${ctx.brand} helps ${ctx.audience} with ${ctx.focusShort}, ${prose.rng.pick(BENEFITS)}.`;
  const cta = ctx.callToAction();

  const features = prose.rng.sample(FEATURES, premium ? prose.rng.int(4, 6) : 3).map((f) => ({
    title: prose.fill(f.title),
    body: `${prose.fill(f.body)} ${prose.pick(DETAIL)}`,
  }));

  const blocks: Block[] = [ctx.leadPara(headline, [subheadline]), p(link(cta.label, cta.url))];
  if (ctx.description) blocks.push(p(ctx.description));
  blocks.push(h2(`Why ${ctx.brand}`), p(`Everything on this page is about ${ctx.objective.topicNoun}, and how ${ctx.brand} can help.`));
  for (const feature of features) blocks.push(h3(feature.title), p(feature.body));

  blocks.push(h2('How it works'), ol(STEPS.slice(0, premium ? 4 : 3).map((s) => prose.fill(s))));

  const why = prose.paragraph([CONTEXT, INSIGHT]);
  const secondary = ctx.secondarySentence();
  if (secondary) why.push(secondary);
  blocks.push(h2('Why it matters'), ctx.claimPara(why));
  const facts = ctx.remainingClaims();
  if (facts) blocks.push(p('The numbers behind it:'), facts);
  blocks.push(...contentBlocks(ctx.library));

  blocks.push(
    h2(CLOSING_HEADINGS[ctx.tone.id] ?? 'Ready to get started?'),
    para([prose.pick(ctx.tone.closers)]),
    p(link(cta.label, cta.url)),
    ...ctaBlocks(ctx.library, ctx.library.ctas[0]),
  );

  return {
    title: headline,
    summary: subheadline,
    blocks,
    kindData: { headline, subheadline, features, callToAction: cta },
  };
}
