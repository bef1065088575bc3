/**
 * Renders the block tree as CommonMark (with GFM tables and task lists). Every piece of text
 * is escaped so that user input (objective, names, quotes) can never become markup: `<script>`
 * comes out as the literal text `\<script\>`.
 */
import type { Block, Inline } from './doc-model.js';
import { safeUrl } from './urls.js';

const MD_SPECIAL = /[\\`*_[\]<>~|#&\n\r]/;

/** Backslash-escapes Markdown punctuation; `#` only where it could open a heading. */
export function escapeMarkdown(text: string, allHashes = false): string {
  if (!MD_SPECIAL.test(text)) return text;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text.charAt(i);
    switch (ch) {
      case '\\': case '`': case '*': case '_': case '[': case ']': case '<': case '>': case '~': case '|':
        out += `\\${ch}`;
        break;
      case '#':
        out += allHashes ? '\\#' : '#';
        break;
      case '&':
        // Only an entity-like "&name;" or "&#..." could be decoded by a renderer.
        out += /[A-Za-z#]/.test(text.charAt(i + 1)) ? '\\&' : '&';
        break;
      case '\n': case '\r':
        out += ' ';
        break;
      default:
        out += ch;
    }
  }
  return out;
}

/** Text that starts a line must not look like a heading, list item, quote or rule. */
function escapeLineStart(md: string): string {
  const first = md.charAt(0);
  if (first === '#' || first === '+' || first === '-' || first === '=') return `\\${md}`;
  const m = /^(\d{1,9})([.)])/.exec(md);
  return m ? `${m[1]}\\${md.slice(m[1]!.length)}` : md;
}

/** Link targets: only safe schemes; spaces and brackets percent-encoded. */
function mdUrl(url: string): string {
  return url.replace(/[ ()<>]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function inline(part: Inline): string {
  switch (part.t) {
    case 'text':
      return escapeMarkdown(part.text);
    case 'strong':
      return `**${escapeMarkdown(part.text)}**`;
    case 'em':
      return `*${escapeMarkdown(part.text)}*`;
    case 'code':
      return part.text.includes('`') ? `\`\` ${part.text} \`\`` : `\`${part.text}\``;
    case 'link': {
      const url = safeUrl(part.href);
      return url ? `[${escapeMarkdown(part.text)}](${mdUrl(url)})` : escapeMarkdown(part.text);
    }
    case 'br':
      return '\\\n';
  }
}

function inlines(content: readonly Inline[]): string {
  let out = '';
  let lineStart = true;
  for (const part of content) {
    const md = inline(part);
    out += lineStart && part.t === 'text' ? escapeLineStart(md) : md;
    lineStart = part.t === 'br';
  }
  return out;
}

function fence(code: string): string {
  let longest = 0;
  let run = 0;
  for (let i = 0; i < code.length; i++) {
    run = code.charCodeAt(i) === 96 ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  return '`'.repeat(Math.max(3, longest + 1));
}

function cell(text: string): string {
  return escapeMarkdown(text) || ' ';
}

function block(b: Block): string {
  switch (b.t) {
    case 'h':
      return `${'#'.repeat(b.level)} ${escapeMarkdown(b.text, true)}`;
    case 'p':
      return inlines(b.content);
    case 'list':
      return b.items
        .map((item, i) => {
          const marker = b.ordered ? `${i + 1}.` : b.task ? '- [ ]' : '-';
          return `${marker} ${inlines(item)}`;
        })
        .join('\n');
    case 'quote':
      return b.paragraphs.map((para) => `> ${inlines(para).replace(/\n/g, '\n> ')}`).join('\n>\n');
    case 'code': {
      const f = fence(b.code);
      return `${f}${/^[a-z0-9-]*$/.test(b.lang) ? b.lang : ''}\n${b.code}\n${f}`;
    }
    case 'table': {
      const head = `| ${b.head.map(cell).join(' | ')} |`;
      const rule = `| ${b.head.map(() => '---').join(' | ')} |`;
      const rows = b.rows.map((row) => `| ${row.map(cell).join(' | ')} |`);
      return [head, rule, ...rows].join('\n');
    }
    case 'img': {
      const url = safeUrl(b.src) ?? '';
      const img = `![${escapeMarkdown(b.alt)}](${mdUrl(url)})`;
      return b.caption ? `${img}\n\n*${escapeMarkdown(b.caption)}*` : img;
    }
    case 'hr':
      return '---';
    case 'end':
      return '###';
  }
}

export function renderMarkdown(title: string, blocks: readonly Block[]): string {
  const parts = [`# ${escapeMarkdown(title, true)}`];
  for (const b of blocks) parts.push(block(b));
  return `${parts.join('\n\n')}\n`;
}
