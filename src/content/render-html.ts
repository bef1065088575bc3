/**
 * Renders the block tree as a complete HTML5 document. All text and attribute values are
 * escaped and void elements are self-closed, so the document also parses as XML.
 */
import type { Block, Inline } from './doc-model.js';
import { safeUrl } from './urls.js';

const HTML_SPECIAL = /[&<>"']/;
const HTML_SPECIAL_ALL = /[&<>"']/g;
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return HTML_SPECIAL.test(text) ? text.replace(HTML_SPECIAL_ALL, (c) => ENTITIES[c] as string) : text;
}

function inline(part: Inline): string {
  switch (part.t) {
    case 'text':
      return escapeHtml(part.text);
    case 'strong':
      return `<strong>${escapeHtml(part.text)}</strong>`;
    case 'em':
      return `<em>${escapeHtml(part.text)}</em>`;
    case 'code':
      return `<code>${escapeHtml(part.text)}</code>`;
    case 'link': {
      const url = safeUrl(part.href);
      return url ? `<a href="${escapeHtml(url)}">${escapeHtml(part.text)}</a>` : escapeHtml(part.text);
    }
    case 'br':
      return '<br />';
  }
}

function inlines(content: readonly Inline[]): string {
  let out = '';
  for (const part of content) out += inline(part);
  return out;
}

function row(cells: readonly string[], tag: 'th' | 'td'): string {
  return `<tr>${cells.map((c) => `<${tag}>${escapeHtml(c)}</${tag}>`).join('')}</tr>`;
}

function block(b: Block): string {
  switch (b.t) {
    case 'h':
      return `<h${b.level}>${escapeHtml(b.text)}</h${b.level}>`;
    case 'p':
      return `<p>${inlines(b.content)}</p>`;
    case 'list': {
      const tag = b.ordered ? 'ol' : 'ul';
      const box = b.task ? '<input type="checkbox" disabled="disabled" /> ' : '';
      const items = b.items.map((item) => `<li>${box}${inlines(item)}</li>`).join('');
      return `<${tag}>${items}</${tag}>`;
    }
    case 'quote':
      return `<blockquote>${b.paragraphs.map((para) => `<p>${inlines(para)}</p>`).join('')}</blockquote>`;
    case 'code': {
      const lang = /^[a-z0-9-]+$/.test(b.lang) ? ` class="language-${b.lang}"` : '';
      return `<pre><code${lang}>${escapeHtml(b.code)}</code></pre>`;
    }
    case 'table':
      return `<table><thead>${row(b.head, 'th')}</thead><tbody>${b.rows.map((r) => row(r, 'td')).join('')}</tbody></table>`;
    case 'img': {
      const src = escapeHtml(safeUrl(b.src) ?? '');
      const img = `<img src="${src}" alt="${escapeHtml(b.alt)}" width="${b.width}" height="${b.height}" />`;
      const caption = b.caption ? `<figcaption>${escapeHtml(b.caption)}</figcaption>` : '';
      return `<figure>${img}${caption}</figure>`;
    }
    case 'hr':
      return '<hr />';
    case 'end':
      return '<p class="end-mark">###</p>';
  }
}

export function renderHtml(title: string, description: string, blocks: readonly Block[]): string {
  const head =
    '<head><meta charset="utf-8" />' +
    '<meta name="viewport" content="width=device-width, initial-scale=1" />' +
    `<title>${escapeHtml(title)}</title>` +
    `<meta name="description" content="${escapeHtml(description)}" /></head>`;
  const body = [`<h1>${escapeHtml(title)}</h1>`];
  for (const b of blocks) body.push(block(b));
  return `<!DOCTYPE html>\n<html lang="en">${head}\n<body><article>\n${body.join('\n')}\n</article></body></html>\n`;
}
