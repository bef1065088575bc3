import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root, for reading documents and naming them in failures. */
export const root = fileURLToPath(new URL('../..', import.meta.url));

/** A fenced block as a reader sees it: where it is, what it says it is, what it holds. */
export interface FencedBlock {
  /** Path from the repository root, for messages. */
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The first word of the info string (`sh`, `ts`, `json`, …), lower case. */
  lang: string;
  /** Marked `illustrative`: shown to read, never run. */
  illustrative: boolean;
  /** Marked `install`: the project's setup (`npm init -y`, `npm install …`), run only where a guide runs in a project of its own. */
  install: boolean;
  /** `file=<name>` in the info string: the name the text tells the reader to save it under. */
  fileName?: string;
  code: string;
}

/** The languages the doc test runs. */
export const RUNNABLE = new Set(['sh', 'bash', 'shell', 'js', 'mjs', 'javascript', 'ts', 'typescript']);

/** README.md and every Markdown file under docs/, in a stable order. */
export function documentFiles(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(join(root, dir), { withFileTypes: true })
      .sort((a, b) => a.name.localeCompare(b.name))
      .flatMap((entry) => (entry.isDirectory() ? walk(join(dir, entry.name)) : entry.name.endsWith('.md') ? [join(dir, entry.name)] : []));
  return ['README.md', ...walk('docs')];
}

/** Every fenced block of a Markdown text (``` or ~~~ fences, CommonMark's rule for closing). */
export function fencedBlocks(markdown: string, file: string): FencedBlock[] {
  const blocks: FencedBlock[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^ {0,3}(`{3,}|~{3,})\s*([^`]*)$/.exec(lines[i]!);
    if (!open) continue;
    const [, fence, info] = open as unknown as [string, string, string];
    const words = info.trim().toLowerCase().split(/[\s,{}]+/).filter(Boolean);
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !new RegExp(`^ {0,3}${fence[0]}{${fence.length},}\\s*$`).test(lines[j]!)) body.push(lines[j++]!);
    const fileName = /(?:^|\s)file=(\S+)/.exec(info)?.[1];
    blocks.push({ file, line: i + 1, lang: words[0] ?? '', illustrative: words.includes('illustrative'), install: words.includes('install'), ...(fileName ? { fileName } : {}), code: body.join('\n') + '\n' });
    i = j;
  }
  return blocks;
}

/** The blocks of a file that the doc test runs, in the order a reader meets them; `install` blocks only when asked. */
export function runnableBlocks(file: string, withInstall = false): FencedBlock[] {
  return fencedBlocks(readFileSync(join(root, file), 'utf8'), file).filter((b) => RUNNABLE.has(b.lang) && !b.illustrative && (withInstall || !b.install));
}

/** The guides: each runs in a project of its own, made as its install block says (test/docs/guides-in-new-projects.test.ts). */
export function guideFiles(): string[] {
  return documentFiles().filter((file) => file.startsWith('docs/guides/'));
}

/** Markdown with its fenced blocks blanked (line count kept), so that nothing in code is read as a heading or a link. */
export function outsideFences(markdown: string): string[] {
  let fence: string | undefined;
  return markdown.split('\n').map((line) => {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
      return '';
    }
    if (marker) return ((fence = marker), '');
    return line;
  });
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of outsideFences(markdown)) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = heading[1]!
      .replace(/<[^>]+>/g, '')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

export interface MarkdownLink {
  file: string;
  line: number;
  target: string;
}

/** Inline links and images outside code: `[text](target)`, `![alt](target "title")`. */
export function markdownLinks(markdown: string, file: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  outsideFences(markdown)
    .map((line) => line.replace(/`[^`]*`/g, '``'))
    .forEach((line, i) => {
      for (const match of line.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) links.push({ file, line: i + 1, target: match[1]! });
    });
  return links;
}

/** A path from the repository root, for messages. */
export function fromRoot(path: string): string {
  return relative(root, path);
}
