/**
 * TypeScript that reads one field of each kind's kindData from a generated Deliverable type,
 * and checks that a request needing one of two fields refuses neither: it compiles only if the
 * generator kept the union told apart by `kind` and the alternatives. `types` names the
 * generated types, e.g. `{ imports: "import type { Deliverable } from './types.gen.js';", … }`.
 */
export function kindDataProbe(types: { imports: string; deliverable: string; topicRequest: string; logoInput: string }): string {
  const { imports, deliverable: D, topicRequest: T, logoInput: L } = types;
  return [
    imports,
    '/** One field of each kind\'s kindData; does not compile if kindData loses its types. */',
    `export function describe(d: ${D}): string {`,
    '  switch (d.kind) {',
    "    case 'blog': return `${d.kindData.sections.length} ${d.kindData.readingTimeMinutes.toFixed(0)}`;",
    "    case 'web_page': return d.kindData.headline.toUpperCase();",
    "    case 'news': return d.kindData.lede.trim();",
    "    case 'how_to': return `${d.kindData.steps.length} ${d.kindData.estimatedMinutes.toFixed(0)}`;",
    "    case 'doc': return String(d.kindData.sections.length);",
    "    case 'resource': return `${d.kindData.format} ${d.kindData.items.length}`;",
    "    case 'image': return String(d.kindData.images.length);",
    "    case 'social': return String(d.kindData.posts.length);",
    "    case 'email': return d.kindData.subject.trim();",
    "    case 'press_release': return `${d.kindData.headline.trim()} ${d.kindData.quotes.length}`;",
    '  }',
    '}',
    "// @ts-expect-error a blog's kindData has no subject",
    `export const wrong = (d: ${D}) => d.kind === 'blog' && d.kindData.subject;`,
    `export const topics: ${T}[] = [{ targetId: 'x', count: 5 }, { phrase: 'p', count: 3 }];`,
    `export const logos: ${L}[] = [{ targetId: 'x' }, { text: 'Acme', position: 'top-left' }];`,
    '// @ts-expect-error a topic request needs a target or a phrase',
    `export const noTopic: ${T} = { count: 3 };`,
    '// @ts-expect-error a logo needs a target or a text',
    `export const noLogo: ${L} = { position: 'top-left' };`,
    '',
  ].join('\n');
}
