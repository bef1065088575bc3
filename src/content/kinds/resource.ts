/** Downloadable resource: a checklist, a guide in chapters, or a fill-in template. */
import type { GenContext } from '../context.js';
import { type Block, h2, link, p } from '../doc-model.js';
import { contentBlocks, ctaBlocks } from '../library.js';
import { ADVICE, CLOSING, DETAIL, HEADINGS, INSIGHT } from '../phrases.js';
import { capitalize } from '../text.js';
import type { KindResult } from './kind.js';

type Format = 'checklist' | 'guide' | 'template';

const TITLES: Record<Format, string[]> = {
  checklist: ['The {FocusT} Checklist', '{FocusT}: A Practical Checklist'],
  guide: ['The Complete Guide to {FocusT}', '{FocusT}: A Downloadable Guide'],
  template: ['{FocusT} Planning Template', 'The {FocusT} Template'],
};

const PHASES: ReadonlyArray<[string, readonly string[]]> = [
  ['Before you start', ['Write down your goal for {focus} in one sentence', 'Agree who owns the work and who signs it off', 'Record your current numbers as a baseline', 'List the tools and budget you already have', 'Ask two or three {audience} what they expect']],
  ['While you work', ['Break the work into tasks of a day or less', 'Test one idea at a time on a small scale', 'Keep a short log of decisions and why you made them', 'Check progress against the goal every week', 'Share drafts early and collect feedback']],
  ['After you finish', ['Compare the results with your baseline', 'Note what worked and what you would change', 'Document the process so it can be repeated', 'Thank the people who contributed', 'Schedule the next review']],
];

const FIELDS: ReadonlyArray<[string, string]> = [
  ['Goal', 'Grow repeat visits by 10% this quarter'],
  ['Audience', 'Existing customers in our home region'],
  ['Key message', 'Small changes, visible results'],
  ['Owner', 'Marketing lead'],
  ['Deadline', 'End of the quarter'],
  ['Budget', 'Existing tools only'],
  ['Success measure', 'Weekly repeat-visit rate'],
  ['Risks', 'Competing priorities in peak season'],
  ['Next review date', 'Two weeks after launch'],
];

function formatOf(ctx: GenContext): Format {
  const objective = ctx.input.objective.toLowerCase();
  if (objective.includes('checklist')) return 'checklist';
  if (objective.includes('template')) return 'template';
  if (objective.includes('guide') || objective.includes('glossary')) return 'guide';
  return ctx.prose.rng.pick(['checklist', 'guide', 'template'] as const);
}

function checklist(ctx: GenContext, blocks: Block[]): string[] {
  const items: string[] = [];
  for (const [phase, pool] of PHASES) {
    const picked = ctx.prose.rng.sample(pool, ctx.premium ? 5 : 3).map((item) => ctx.prose.fill(item));
    items.push(...picked);
    blocks.push(h2(phase), { t: 'list', ordered: false, task: true, items: picked.map((text) => [{ t: 'text', text }]) });
  }
  blocks.push(ctx.claimPara(ctx.prose.paragraph([DETAIL, INSIGHT])));
  return items;
}

function guide(ctx: GenContext, blocks: Block[]): string[] {
  const chapters = ctx.prose.many(HEADINGS, ctx.premium ? 6 : 4).map(capitalize);
  chapters.forEach((chapter, i) => {
    blocks.push(h2(`Chapter ${i + 1}: ${chapter}`), ctx.claimPara(ctx.prose.paragraph([DETAIL, ADVICE, INSIGHT])));
  });
  return chapters;
}

function template(ctx: GenContext, blocks: Block[]): string[] {
  const fields = FIELDS.slice(0, ctx.premium ? 9 : 7);
  blocks.push(
    h2('The template'),
    p('Copy this table into your own document and fill in the middle column.'),
    { t: 'table', head: ['Field', 'Your notes', 'Example'], rows: fields.map(([field, example]) => [field, '', example]) },
    h2('Tips for filling it in'),
    ctx.claimPara(ctx.prose.paragraph([ADVICE, DETAIL])),
  );
  return fields.map(([field]) => field);
}

export function writeResource(ctx: GenContext): KindResult {
  const { prose } = ctx;
  const format = formatOf(ctx);
  const title = ctx.suiteTitle(prose.pick(TITLES[format]));
  const blocks: Block[] = [
    ctx.leadPara(title, [`This free ${format} from ${ctx.brand} helps ${ctx.audience} with ${ctx.objective.topicNoun}. Download it, print it, or copy it into the tools you already use.`]),
    h2(`How to use this ${format}`),
    ctx.claimPara(prose.paragraph([INSIGHT, ADVICE])),
  ];
  const items = format === 'checklist' ? checklist(ctx, blocks) : format === 'guide' ? guide(ctx, blocks) : template(ctx, blocks);

  const secondary = ctx.secondarySentence();
  const library = contentBlocks(ctx.library);
  if (library.length > 0) blocks.push(h2('Key terms and resources'), ...library);
  const cta = ctx.callToAction();
  blocks.push(
    h2(prose.rng.pick(ctx.tone.conclusionHeadings)),
    ctx.claimPara([prose.pick(CLOSING), ...(secondary ? [secondary] : []), prose.pick(ctx.tone.closers)]),
    p(link(cta.label, cta.url)),
    ...ctaBlocks(ctx.library, ctx.library.ctas[0]),
  );

  return {
    title,
    summary: `A free ${format} from ${ctx.brand} on ${ctx.topic}, with ${items.length} ${format === 'template' ? 'fields' : format === 'guide' ? 'chapters' : 'items'}.`,
    blocks,
    kindData: { format, items },
  };
}
