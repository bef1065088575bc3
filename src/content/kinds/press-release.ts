/**
 * Press release: headline, dateline and lede, body, quotes, "About <name>" boilerplate,
 * media contact (when there is one), and "###" to close.
 */
import type { GenContext } from '../context.js';
import { type Block, h2, inlineText, link, p, strong, ul, type Part } from '../doc-model.js';
import { contentBlocks, ctaBlocks } from '../library.js';
import { CONTEXT, DETAIL } from '../phrases.js';
import { oneLine, titleCase } from '../text.js';
import type { MediaContact } from '../types.js';
import type { KindResult } from './kind.js';
import { resolveQuotes } from './quotes.js';

const VERBS = ['Announces', 'Unveils', 'Introduces', 'Launches'];

const GUIDANCE_VERBS = ['Shares New Guidance on', 'Publishes Practical Advice on', 'Releases New Insights on'];

const CLAUSE_LEDES = [
  '{brand} today shared new guidance on {topic}, aimed at {audience} who want practical, proven steps.',
  '{brand} today published practical advice on {topic}, drawing on its work with {audience}.',
];

const LEDES = [
  '{brand} today announced {topicThird}, a move designed to help {audience} get more from {focus}.',
  '{brand} today announced {topicThird}, giving {audience} a simpler way to approach {focus}.',
  '{brand} today unveiled {topicThird}, building on growing demand from {audience}.',
];

const AVAILABILITY = [
  'More information is available at {site}.',
  'Further details, including images and background material, are available at {site}.',
];

function mediaContactOf(ctx: GenContext): MediaContact | null {
  const contact = ctx.input.pressRelease?.mediaContact ?? ctx.input.target.brandKit.pressRelease.mediaContact;
  if (!contact) return null;
  return contact.phone ? { name: contact.name, email: contact.email, phone: contact.phone } : { name: contact.name, email: contact.email };
}

function boilerplateOf(ctx: GenContext): string {
  const given = ctx.input.pressRelease?.boilerplate ?? ctx.input.target.brandKit.pressRelease.boilerplate;
  if (given && given.trim()) return given.trim();
  return ctx.description ? `${ctx.brand}: ${ctx.description}` : `${ctx.brand} helps ${ctx.audience} with ${ctx.focus}.`;
}

export function writePressRelease(ctx: GenContext): KindResult {
  const { prose } = ctx;
  const extra = { topicThird: ctx.objective.topicThirdPerson, site: ctx.siteUrl };
  // A clause objective ("how bakeries can ...") is news about guidance, not a product launch.
  const clause = ctx.objective.topicNoun !== ctx.topic && !ctx.objective.announce;
  const verb = ctx.objective.announce ? 'Announces' : clause ? prose.rng.pick(GUIDANCE_VERBS) : prose.rng.pick(VERBS);
  const subject = clause ? ctx.objective.topicNoun : ctx.objective.topicThirdPerson;
  const headline = ctx.suiteTitle(`${ctx.brand} ${verb} ${titleCase(subject)}`);
  const dateline = ctx.dateline();
  const quotes = resolveQuotes(ctx);
  const boilerplate = boilerplateOf(ctx);
  const mediaContact = mediaContactOf(ctx);

  const lead = ctx.leadPara(headline, [strong(dateline), ' ', prose.pick(clause ? CLAUSE_LEDES : LEDES, extra)]);
  const blocks: Block[] = [lead, ctx.claimPara(prose.paragraph([CONTEXT, DETAIL]))];
  const secondary = ctx.secondarySentence();
  blocks.push(ctx.claimPara([...prose.paragraph([DETAIL]), ...(secondary ? [secondary] : [])], 0));
  for (const quote of quotes) {
    const who = quote.title ? `${quote.speaker}, ${quote.title}, ${ctx.brand}` : `${quote.speaker}, ${ctx.brand}`;
    blocks.push({ t: 'quote', paragraphs: [[{ t: 'text', text: `\u201c${oneLine(quote.text)}\u201d` }], [{ t: 'text', text: `\u2014 ${who}` }]] });
  }
  while (ctx.claims.remaining > 0) blocks.push(ctx.claimPara(prose.paragraph([DETAIL]), 0));
  blocks.push(...contentBlocks(ctx.library), ...ctaBlocks(ctx.library), p(prose.pick(AVAILABILITY, extra)));

  blocks.push(h2(`About ${ctx.brand}`));
  for (const paragraph of boilerplate.split(/\n\s*\n/)) blocks.push(p(oneLine(paragraph)));
  if (mediaContact) {
    const lines: Part[][] = [[strong(mediaContact.name)], [link(mediaContact.email, `mailto:${mediaContact.email}`)]];
    if (mediaContact.phone) lines.push([link(mediaContact.phone, `tel:${mediaContact.phone.replace(/[^\d+]/g, '')}`)]);
    blocks.push(h2('Media contact'), ul(lines));
  }
  blocks.push({ t: 'end' });

  return {
    title: headline,
    summary: inlineText(lead.t === 'p' ? lead.content.slice(2) : []),
    blocks,
    kindData: { headline, dateline, quotes, boilerplate, mediaContact },
    sourcesBeforeEnd: true,
  };
}

