/** How-to guide: what you need, numbered steps with instructions, tips, troubleshooting. */
import type { GenContext } from '../context.js';
import { type Block, h2, h3, link, p, ul } from '../doc-model.js';
import { contentBlocks, ctaBlocks } from '../library.js';
import { ADVICE, CLOSING, DETAIL, INSIGHT } from '../phrases.js';
import { titleCase } from '../text.js';
import type { KindResult } from './kind.js';

/** Steps in a sensible order; a guide uses an ordered subset. */
const STEPS = [
  { title: 'Define your goal', instruction: 'Decide what you want to achieve with {focus} and write it down in one sentence. A clear goal keeps every later decision simple.' },
  { title: 'Check your starting point', instruction: 'Take stock of where things stand today. Note what already works and what does not, so you can measure progress later.' },
  { title: 'Gather what you need', instruction: 'Collect the tools, information and people you will rely on before you begin. Having everything at hand saves time once you start.' },
  { title: 'Make a simple plan', instruction: 'Break the work into small tasks and put them in order. Give each task an owner and a date, even if the owner is you.' },
  { title: 'Start with a small test', instruction: 'Try your plan on a small scale first. A quick test with a handful of {audience} shows what to adjust before you commit.' },
  { title: 'Do the main work', instruction: 'Work through your plan one task at a time. Finish each task properly rather than starting many at once.' },
  { title: 'Review the results', instruction: 'Compare the outcome with the goal you wrote down at the start. Note what worked, what did not, and why.' },
  { title: 'Refine and repeat', instruction: 'Adjust the parts that did not work and run through the process again. Each round gets faster and more reliable.' },
  { title: 'Document the process', instruction: 'Write down the steps that worked so anyone on the team can repeat them. Good notes turn a one-off success into a routine.' },
  { title: 'Share what you learned', instruction: 'Tell the people involved what changed and what comes next. Sharing results keeps everyone motivated and aligned.' },
];

const PREREQUISITES = [
  'A clear idea of what you want from {focus}',
  'About {minutes} minutes of uninterrupted time',
  'A notebook or shared document to record decisions',
  'Your current numbers or observations as a baseline',
  'Input from at least one colleague or customer',
  'Basic familiarity with {focus}',
];

const TITLES = ['How to Get Started With {FocusT}', '{FocusT}: A Step-by-Step Guide', 'A Beginner\u2019s Guide to {FocusT} in {num} Steps'];

const TROUBLE = [
  'If progress stalls, go back to your goal and check it is still specific enough.',
  'If results are hard to judge, pick one simple measure and track only that for a while.',
  'If the work keeps slipping, shrink the next task until it fits in a single sitting.',
  'If people disagree on priorities, write the options down and decide against your goal.',
];

export function writeHowTo(ctx: GenContext): KindResult {
  const { prose, premium } = ctx;
  const rng = prose.rng;
  const count = premium ? rng.int(7, 9) : rng.int(5, 7);
  const chosen = rng.sample(STEPS.map((_, i) => i), count).sort((a, b) => a - b);
  const steps = chosen.map((index, i) => ({
    number: i + 1,
    title: STEPS[index]!.title,
    instruction: prose.fill(STEPS[index]!.instruction),
  }));
  const estimatedMinutes = steps.reduce((sum) => sum + rng.int(1, 4) * 5, 0);
  const baseTitle = ctx.objective.howTo ? titleCase(ctx.topic) : prose.fill(rng.pick(TITLES), { num: String(count) });
  const title = ctx.suiteTitle(baseTitle);
  const prerequisites = rng
    .sample(PREREQUISITES, rng.int(3, 5))
    .map((item) => prose.fill(item, { minutes: String(estimatedMinutes) }));

  const intro = `${prose.pick(ctx.tone.openers)} This step-by-step guide covers ${ctx.topic}, in ${count} clear steps.`;
  const blocks: Block[] = [
    ctx.leadPara(title, [intro]),
    ctx.claimPara([`Set aside about ${estimatedMinutes} minutes.`, ...prose.paragraph([INSIGHT])]),
    h2('What you\u2019ll need'),
    ul(prerequisites),
    h2('Step-by-step instructions'),
  ];
  steps.forEach((step, i) => {
    blocks.push(h3(`Step ${step.number}: ${step.title}`));
    // A claim now and then backs a step, after the instruction itself.
    blocks.push(i % 2 === 1 ? ctx.claimPara([step.instruction], 1) : p(step.instruction));
  });

  const tips = prose.paragraph([DETAIL, INSIGHT]);
  const secondary = ctx.secondarySentence();
  if (secondary) tips.push(secondary);
  blocks.push(h2('Tips for success'), ul(prose.many(ADVICE, premium ? 4 : 3)), ctx.claimPara(tips));
  blocks.push(h2('Troubleshooting'), ul(rng.sample(TROUBLE, premium ? 3 : 2)));
  blocks.push(...contentBlocks(ctx.library));

  const cta = ctx.callToAction();
  blocks.push(
    h2(rng.pick(ctx.tone.conclusionHeadings)),
    ctx.claimPara([prose.pick(CLOSING), prose.pick(ctx.tone.closers)]),
    p(link(cta.label, cta.url)),
    ...ctaBlocks(ctx.library, ctx.library.ctas[0]),
  );

  return {
    title,
    summary: `Step by step: ${ctx.topic}, in ${count} steps and about ${estimatedMinutes} minutes.`,
    blocks,
    kindData: { prerequisites, steps, estimatedMinutes },
  };
}
