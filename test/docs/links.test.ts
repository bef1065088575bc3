import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { documentFiles, headingAnchors, markdownLinks, root } from './markdown.js';

/**
 * Every relative link of README.md, docs/ and bench/README.md leads somewhere: the file or
 * folder exists, and a `#anchor` names a heading of the Markdown file it points into.
 */
const files = [...documentFiles(), 'bench/README.md'];

/** What is wrong with one link, or undefined. */
export function brokenLink(from: string, target: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined; // https:, mailto:: not ours to check
  const [path, anchor] = target.split('#', 2) as [string, string | undefined];
  const file = path === '' ? join(root, from) : join(root, dirname(from), decodeURIComponent(path));
  if (!file.startsWith(root)) return `${target} leaves the repository`;
  if (!existsSync(file)) return `${relative(root, file)} does not exist`;
  if (anchor === undefined) return undefined;
  if (statSync(file).isDirectory() || !file.endsWith('.md')) return `#${anchor}: ${relative(root, file)} is not a Markdown file`;
  return headingAnchors(readFileSync(file, 'utf8')).has(anchor) ? undefined : `#${anchor} names no heading of ${relative(root, file)}`;
}

describe('links in README.md and docs/', () => {
  it.each(files)('%s: every relative link and anchor resolves', (file) => {
    const broken = markdownLinks(readFileSync(join(root, file), 'utf8'), file)
      .map((link) => ({ link, why: brokenLink(file, link.target) }))
      .filter((entry) => entry.why !== undefined)
      .map(({ link, why }) => `${link.file}:${link.line}: ${link.target}: ${why}`);
    expect(broken).toEqual([]);
  });

  it('maps every page of docs/ from the README or docs/README.md', () => {
    const linked = new Set(
      ['README.md', 'docs/README.md'].flatMap((from) =>
        markdownLinks(readFileSync(join(root, from), 'utf8'), from).map((link) => relative(root, join(root, dirname(from), link.target.split('#')[0]!))),
      ),
    );
    const pages = documentFiles().filter((file) => file.startsWith('docs/') && file !== 'docs/README.md' && !file.startsWith('docs/recipes/'));
    expect(pages.filter((page) => !linked.has(page))).toEqual([]);
  });

  it('tells a broken file, a broken anchor and a good link apart', () => {
    expect(brokenLink('README.md', 'docs/no-such-page.md')).toMatch(/does not exist/);
    expect(brokenLink('README.md', '#no-such-heading')).toMatch(/names no heading of README.md/);
    expect(brokenLink('README.md', '#quick-start')).toBeUndefined();
    expect(brokenLink('docs/README.md', '../README.md#seeded-keys')).toBeUndefined();
    expect(brokenLink('docs/README.md', 'https://example.com/#anything')).toBeUndefined();
  });
});
