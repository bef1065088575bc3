/**
 * The content generator: a pure function from a deliverable's input to its finished content.
 * A kind writer builds the article as blocks; this module adds what every kind shares
 * (suite line, images, leftover claims, sources), then renders Markdown and HTML from the
 * same blocks and measures them.
 */
import { GenContext } from './context.js';
import { type Block, blockText, h2, link, ol } from './doc-model.js';
import { longDate } from './dates.js';
import { makeImages } from './images.js';
import type { KindResult, KindWriter } from './kinds/kind.js';
import { writeBlog } from './kinds/blog.js';
import { writeDoc } from './kinds/doc.js';
import { writeEmail } from './kinds/email.js';
import { writeHowTo } from './kinds/how-to.js';
import { writeImage } from './kinds/image.js';
import { writeNews } from './kinds/news.js';
import { writePressRelease } from './kinds/press-release.js';
import { writeResource } from './kinds/resource.js';
import { writeSocial } from './kinds/social.js';
import { writeWebPage } from './kinds/web-page.js';
import { renderHtml } from './render-html.js';
import { renderMarkdown } from './render-markdown.js';
import { metaDescription } from './seo.js';
import { countWordsIn, oneLine, slugify } from './text.js';
import type { ContentInput, ContentKind, GeneratedContent, GeneratedImage, Source } from './types.js';

const WRITERS: Record<ContentKind, KindWriter> = {
  blog: writeBlog,
  web_page: writeWebPage,
  news: writeNews,
  how_to: writeHowTo,
  doc: writeDoc,
  resource: writeResource,
  image: writeImage,
  social: writeSocial,
  email: writeEmail,
  press_release: writePressRelease,
};

export function generateContent(input: ContentInput): GeneratedContent {
  const ctx = new GenContext(input);
  const result = WRITERS[input.kind](ctx);
  const title = oneLine(result.title);
  const images = result.images ?? articleImages(ctx, title);
  const blocks = assemble(ctx, result, images);
  const summary = oneLine(result.summary);
  const description = metaDescription(input.target.brandKit, summary);
  let wordCount = 0;
  for (const b of blocks) wordCount += countWordsIn(blockText(b));
  return {
    title,
    slug: slugify(title),
    summary,
    metaDescription: description,
    markdown: renderMarkdown(title, blocks),
    html: renderHtml(title, description, blocks),
    wordCount,
    sources: ctx.sources,
    claims: ctx.claims.placed(),
    images,
    kindData: result.finish ? result.finish(result.kindData, wordCount) : result.kindData,
  };
}

/** One or two images for kinds other than `image`, when the build asks for them. */
function articleImages(ctx: GenContext, title: string): GeneratedImage[] {
  if (!ctx.input.generateImages) return [];
  const count = ctx.rng('image-count').int(1, 2);
  const requests = [
    { alt: `Header illustration: ${ctx.focus}`, label: title, width: 1200, height: 630 },
    { alt: `Illustration of ${ctx.focus} for ${ctx.brand}`, label: ctx.brand, width: 800, height: 450 },
  ];
  return makeImages(ctx.input, requests.slice(0, count));
}

function imageBlock(image: GeneratedImage): Block {
  return { t: 'img', alt: image.alt, src: image.url, width: image.width, height: image.height };
}

function assemble(ctx: GenContext, result: KindResult, images: readonly GeneratedImage[]): Block[] {
  const blocks = result.blocks.slice();
  let lead = blocks.findIndex((b) => b.t === 'p' && b.lead);
  if (lead < 0) lead = Math.max(0, blocks.findIndex((b) => b.t === 'p'));

  // After the lead: the suite line, then the header image (the lead stays the first paragraph).
  const afterLead: Block[] = [];
  const suite = ctx.suiteLine();
  if (suite) afterLead.push(suite);
  if (!result.images && images[0]) afterLead.push(imageBlock(images[0]));
  blocks.splice(lead + 1, 0, ...afterLead);

  if (!result.images && images[1]) {
    const headings = blocks.map((b, i) => (b.t === 'h' && b.level === 2 && i > lead ? i : -1)).filter((i) => i >= 0);
    const middle = lead + 1 + Math.floor((endIndex(blocks) - lead) / 2);
    const at = headings[Math.floor((headings.length - 1) / 2)] ?? middle;
    blocks.splice(at, 0, imageBlock(images[1]));
  }

  // Kinds place their claims as they write; any left over still have to appear in the text.
  const rest = ctx.remainingClaims();
  if (rest) blocks.splice(endIndex(blocks), 0, h2('Key facts'), rest);

  if (ctx.sources.length > 0) {
    const at = result.sourcesBeforeEnd ? endIndex(blocks) : blocks.length;
    blocks.splice(at, 0, h2('Sources'), sourceList(ctx.sources));
  }
  return blocks;
}

/** Where trailing sections go: before a press release's "###", else at the end. */
function endIndex(blocks: readonly Block[]): number {
  const end = blocks.findIndex((b) => b.t === 'end');
  return end < 0 ? blocks.length : end;
}

function sourceList(sources: readonly Source[]): Block {
  return ol(
    sources.map((s) => [
      link(s.title, s.url),
      ` \u2014 ${s.publisher}, retrieved ${longDate(s.retrievedAt) ?? s.retrievedAt}`,
    ]),
  );
}
