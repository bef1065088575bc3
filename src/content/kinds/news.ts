/**
 * News story in inverted-pyramid order: dateline and lede first, then the key details, a
 * quote, background, and the least important context last. No subheadings, as in wire copy.
 */
import type { GenContext } from '../context.js';
import { type Block, inlineText, p, strong } from '../doc-model.js';
import { contentBlocks, ctaBlocks } from '../library.js';
import { CONTEXT, DETAIL, EXAMPLE, INSIGHT } from '../phrases.js';
import { FIRST_NAMES, LAST_NAMES, EXEC_TITLES } from '../vocabulary.js';
import type { KindResult } from './kind.js';

const HEADLINES = [
  'New Research Sheds Light on {FocusT}',
  '{AudienceT} Rethink {FocusT} as Expectations Rise',
  '{BrandT} Shares New Findings on {FocusT}',
  'What the Latest Data Says About {FocusT}',
  '{FocusT} Gains Ground Among {AudienceT}',
];

const LEDES = [
  '{Audience} are rethinking their approach to {topicThird}, according to new findings shared by {brand} this week.',
  '{Brand} this week published new findings on {topicThird}, pointing to a clear shift in how {audience} work.',
  'A growing number of {audience} are putting {focus} at the top of their agenda, {brand} said this week.',
];

const KEY_DETAILS = [
  'The findings draw on conversations with {audience} and a review of recent industry research.',
  'The shift is most visible among {audience} that have already run small pilots.',
  'Analysts say the change has been building for several years.',
];

const QUOTES = [
  'What we are seeing is a real change in how {audience} think about {focus}. The teams that act now will have a clear advantage',
  'The interest in {focus} is not a fad. It reflects what {audience} need to stay competitive',
  'Our goal is to make {focus} practical for everyone, not just for the largest organizations',
];

const NEXT = [
  '{Brand} said it plans to publish further guidance on {focus} in the coming months.',
  'Further results are expected later this year, {brand} said.',
  '{Brand} said it will continue to track how {audience} approach {focus}.',
];

export function writeNews(ctx: GenContext): KindResult {
  const { prose, premium } = ctx;
  const extra = { topicThird: ctx.objective.topicThirdPerson };
  const title = ctx.suiteTitle(prose.pick(HEADLINES));
  const dateline = ctx.dateline();
  const lead = ctx.leadPara(title, [strong(dateline), ' ', prose.pick(LEDES, extra)]);
  const lede = inlineText(lead.t === 'p' ? lead.content.slice(2) : []);

  const rng = prose.rng;
  const speaker = `${rng.pick(FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`;
  const role = rng.pick(EXEC_TITLES);
  const quote = `\u201c${prose.pick(QUOTES)},\u201d said ${speaker}, ${role} at ${ctx.brand}.`;

  const blocks: Block[] = [
    lead,
    ctx.claimPara([`The findings centre on ${ctx.objective.topicThirdPerson}.`, prose.pick(KEY_DETAILS)], 2),
    ctx.claimPara(prose.paragraph([DETAIL]), 0),
    p(quote),
    ctx.claimPara(prose.paragraph([CONTEXT, INSIGHT])),
  ];
  const secondary = ctx.secondarySentence();
  blocks.push(ctx.claimPara([...prose.paragraph([EXAMPLE]), ...(secondary ? [secondary] : [])]));
  if (premium) blocks.push(ctx.claimPara(prose.paragraph([CONTEXT, DETAIL])));
  // Whatever claims are left become short trailing paragraphs: least important last.
  while (ctx.claims.remaining > 0) blocks.push(ctx.claimPara(prose.paragraph([DETAIL])));
  blocks.push(...contentBlocks(ctx.library), p(prose.pick(NEXT)), ...ctaBlocks(ctx.library));

  return {
    title,
    summary: lede,
    blocks,
    kindData: { dateline, lede },
  };
}
