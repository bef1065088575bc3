/** Blog post: title, intro, three to six H2 sections, conclusion with a call to action. */
import type { GenContext } from '../context.js';
import { type Block, h2, link, p, para, ul } from '../doc-model.js';
import { contentBlocks, ctaBlocks } from '../library.js';
import { ADVICE, BRAND_LINES, CLOSING, CONTEXT, DETAIL, EXAMPLE, HEADINGS, INSIGHT, TOPIC_INTROS } from '../phrases.js';
import { capitalize, decapitalize } from '../text.js';
import type { KindResult } from './kind.js';

const PARAGRAPH_SHAPES = [
  [CONTEXT, INSIGHT, DETAIL],
  [ADVICE, EXAMPLE, INSIGHT],
  [DETAIL, ADVICE, EXAMPLE],
  [INSIGHT, DETAIL, ADVICE],
] as const;

const WORDS_PER_MINUTE = 225;

function sectionHeadings(ctx: GenContext, count: number): string[] {
  const { prose, angle } = ctx;
  const generic = prose.many(HEADINGS, count - 2);
  const middle = Math.floor(count / 2);
  const out = [prose.fill(angle.headings[0]!), ...generic];
  out.splice(middle, 0, prose.fill(angle.headings[1]!));
  return out.map(capitalize);
}

/** Paragraph sentences, with the secondary keywords woven into one of them when asked. */
function sectionBody(ctx: GenContext, index: number, paragraphs: number, withSecondary: boolean): Block[] {
  const blocks: Block[] = [];
  for (let j = 0; j < paragraphs; j++) {
    const sentences = ctx.prose.paragraph(PARAGRAPH_SHAPES[(index + j) % PARAGRAPH_SHAPES.length]!);
    if (withSecondary && j === 0) {
      const secondary = ctx.secondarySentence();
      if (secondary) sentences.push(secondary);
    }
    blocks.push(ctx.claimPara(sentences));
  }
  return blocks;
}

export function writeBlog(ctx: GenContext): KindResult {
  const { prose, premium, tone } = ctx;
  const sectionCount = premium ? prose.rng.int(5, 6) : prose.rng.int(3, 4);
  const paragraphs = premium ? 3 : 2;
  const rawTitle = prose.fill(prose.rng.pick(ctx.angle.titles), { num: String(sectionCount) });
  const title = ctx.input.pageCount > 12 ? `${rawTitle} (Part ${ctx.input.pageIndex + 1})` : rawTitle;
  const headings = sectionHeadings(ctx, sectionCount);

  const blocks: Block[] = [
    ctx.leadPara(title, [`${prose.pick(tone.openers)} ${prose.pick(TOPIC_INTROS)}`]),
    ctx.claimPara(prose.paragraph([CONTEXT, BRAND_LINES, INSIGHT])),
  ];
  headings.forEach((heading, i) => {
    blocks.push(h2(heading), ...sectionBody(ctx, i, paragraphs, i === 1));
    if (i === 1 || (premium && i === 3)) {
      blocks.push(p(`${i === 1 ? 'A few practical tips' : 'Worth remembering'}:`), ul(prose.many(ADVICE, 3)));
    }
  });
  blocks.push(...contentBlocks(ctx.library));

  const cta = ctx.callToAction();
  blocks.push(
    h2(prose.rng.pick(tone.conclusionHeadings)),
    para([prose.pick(CLOSING), ...prose.paragraph([INSIGHT]), prose.pick(tone.closers)]),
  );
  const leftover = ctx.remainingClaims();
  if (leftover) blocks.push(p('Key facts from our research:'), leftover);
  blocks.push(p(`${capitalize(ctx.brand)} can help. `, link(cta.label, cta.url)), ...ctaBlocks(ctx.library, ctx.library.ctas[0]));

  const forWhom = ctx.objective.audience ? '' : ` for ${ctx.audience}`;
  const summary = `A practical guide to ${ctx.topic}${forWhom}, from ${decapitalize(headings[0]!)} to ${decapitalize(headings[headings.length - 1]!)}.`;
  return {
    title,
    summary,
    blocks,
    kindData: { sections: headings, readingTimeMinutes: 1 },
    finish: (data, wordCount) => ({ ...data, readingTimeMinutes: Math.max(1, Math.ceil(wordCount / WORDS_PER_MINUTE)) }),
  };
}
