/** Image set: several images in common formats, each embedded with a caption and usage note. */
import type { GenContext } from '../context.js';
import { type Block, h2, p } from '../doc-model.js';
import { contentBlocks, ctaBlocks } from '../library.js';
import { makeImages } from '../images.js';
import { CONTEXT, INSIGHT } from '../phrases.js';
import type { KindResult } from './kind.js';

const FORMATS = [
  { name: 'Landscape banner', width: 1200, height: 630, use: 'Use it as a blog header or link preview.' },
  { name: 'Square post', width: 1080, height: 1080, use: 'Made for Instagram, LinkedIn and Facebook feeds.' },
  { name: 'Portrait post', width: 1080, height: 1350, use: 'Fills the screen in mobile feeds and stories.' },
  { name: 'Widescreen hero', width: 1600, height: 900, use: 'Suits a landing-page hero or a presentation slide.' },
];

const CONCEPTS = [
  'an abstract take on {focus}',
  'bold shapes that suggest momentum',
  'a calm, layered composition for {audience}',
  'a playful arrangement of brand colours',
  'a clean, minimal study of {focus}',
];

const TITLES = ['{FocusT}: Image Set', 'Visual Concepts for {FocusT}', '{FocusT} in Pictures'];

export function writeImage(ctx: GenContext): KindResult {
  const { prose, premium } = ctx;
  const rng = prose.rng;
  const count = premium ? rng.int(3, 4) : rng.int(2, 3);
  const formats = FORMATS.slice(0, count);
  const concepts = prose.many(CONCEPTS, count);
  const title = ctx.suiteTitle(prose.pick(TITLES));
  const images = makeImages(
    ctx.input,
    formats.map((f, i) => ({ alt: `${f.name}: ${concepts[i]}, in ${ctx.brand} colours`, label: title, width: f.width, height: f.height })),
  );
  const captions = formats.map((f, i) => `${f.name} (${f.width}\u00d7${f.height}): ${concepts[i]}.`);

  const tone = ctx.input.target.brandKit.tone.trim().toLowerCase().replace(/\s*tone$/, '') || 'signature';
  const blocks: Block[] = [
    ctx.leadPara(title, [`A set of ${count} images for ${ctx.objective.topicNoun}, made in ${ctx.brand}\u2019s colours to match its ${tone} tone.`]),
  ];
  images.forEach((image, i) => {
    blocks.push(
      h2(`Image ${i + 1}: ${formats[i]!.name}`),
      { t: 'img', alt: image.alt, src: image.url, width: image.width, height: image.height, caption: captions[i]! },
      p(formats[i]!.use),
    );
  });

  const direction = prose.paragraph([CONTEXT, INSIGHT]);
  const secondary = ctx.secondarySentence();
  if (secondary) direction.push(secondary);
  blocks.push(h2('Creative direction'), ctx.claimPara(direction));
  while (ctx.claims.remaining > 0) blocks.push(ctx.claimPara(prose.paragraph([INSIGHT]), 0));
  blocks.push(...contentBlocks(ctx.library), ...ctaBlocks(ctx.library));

  return {
    title,
    summary: `${count} ready-to-use images for ${ctx.objective.topicNoun} in ${ctx.brand}\u2019s colours.`,
    blocks,
    kindData: { images: images.map((image, i) => ({ id: image.id, caption: captions[i]! })) },
    images,
  };
}
