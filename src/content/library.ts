/** Library items a build names: each one shows up in the content in the form that fits it. */
import { type Block, link, p, strong } from './doc-model.js';
import { oneLine } from './text.js';
import type { LibraryItemSnapshot } from './types.js';

export interface LibraryGroups {
  ctas: LibraryItemSnapshot[];
  blurbs: LibraryItemSnapshot[];
  glossary: LibraryItemSnapshot[];
  assets: LibraryItemSnapshot[];
}

export function groupLibrary(items: readonly LibraryItemSnapshot[] | undefined): LibraryGroups {
  const groups: LibraryGroups = { ctas: [], blurbs: [], glossary: [], assets: [] };
  for (const raw of items ?? []) {
    const item = { ...raw, name: oneLine(raw.name), content: oneLine(raw.content) };
    if (item.type === 'cta') groups.ctas.push(item);
    else if (item.type === 'product_blurb') groups.blurbs.push(item);
    else if (item.type === 'glossary_term') groups.glossary.push(item);
    else groups.assets.push(item);
  }
  return groups;
}

export function ctaBlock(item: LibraryItemSnapshot): Block {
  return p(item.url ? link(item.content, item.url) : strong(item.content));
}

/** Product blurbs as paragraphs, glossary terms as definitions, brand assets by name and link. */
export function contentBlocks(lib: LibraryGroups): Block[] {
  const out: Block[] = [];
  for (const blurb of lib.blurbs) out.push(p(blurb.content));
  for (const term of lib.glossary) out.push(p(strong(term.name), ': ', term.content));
  for (const asset of lib.assets) {
    out.push(p('Brand asset: ', asset.url ? link(asset.name, asset.url) : strong(asset.name), ' \u2014 ', asset.content));
  }
  return out;
}

/** Every CTA except the one a kind already uses as its main call to action. */
export function ctaBlocks(lib: LibraryGroups, skip?: LibraryItemSnapshot): Block[] {
  return lib.ctas.filter((c) => c !== skip).map(ctaBlock);
}
