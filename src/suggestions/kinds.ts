import type { ContentKind } from '../content/types.js';

/** How an objective names each kind: "Write a how-to guide about ...". */
export const KIND_LABELS: Readonly<Record<ContentKind, string>> = {
  blog: 'blog post',
  web_page: 'web page',
  news: 'news article',
  how_to: 'how-to guide',
  doc: 'documentation page',
  resource: 'downloadable resource',
  image: 'set of images',
  social: 'set of social posts',
  email: 'email',
  press_release: 'press release',
};

/** "a blog post", "an email". */
export function withArticle(label: string): string {
  return `${/^[aeiou]/i.test(label) ? 'an' : 'a'} ${label}`;
}

/** Bracketed text such as `[fail:drafting]` is a simulator control, never a suggestion's words. */
export function withoutMarkers(text: string): string {
  return text.replace(/\[[^\]]*\]/g, ' ').replace(/\s+/g, ' ').trim();
}
