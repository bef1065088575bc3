import { describe, expect, it } from 'vitest';
import { type Block, link, p, strong } from './doc-model.js';
import { escapeHtml, renderHtml } from './render-html.js';
import { escapeMarkdown, renderMarkdown } from './render-markdown.js';

describe('renderers', () => {
  it('escape every HTML special character in text and attributes', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
    const html = renderHtml('A "quoted" <title>', `Desc with 'quotes' & <tags>`, [p('x')]);
    expect(html).toContain('<title>A &quot;quoted&quot; &lt;title&gt;</title>');
    expect(html).toContain('content="Desc with &#39;quotes&#39; &amp; &lt;tags&gt;"');
  });

  it('backslash-escape Markdown syntax so user text stays text', () => {
    expect(escapeMarkdown('<b>*bold*</b> [x](y) `c` a_b | ~')).toBe('\\<b\\>\\*bold\\*\\</b\\> \\[x\\](y) \\`c\\` a\\_b \\| \\~');
    expect(escapeMarkdown('Tips & tricks &amp; more')).toBe('Tips & tricks \\&amp; more');
    const md = renderMarkdown('# Not a heading', [p('# not a heading either'), p('1. not a list'), p('- nor this')]);
    expect(md).toBe('# \\# Not a heading\n\n\\# not a heading either\n\n1\\. not a list\n\n\\- nor this\n');
  });

  it('drop links with unsafe schemes and encode awkward URLs', () => {
    const blocks: Block[] = [p(link('bad', 'javascript:alert(1)'), ' ', link('ok', 'https://example.com/a(b)'), ' ', strong('s'))];
    expect(renderMarkdown('T', blocks)).toContain('bad [ok](https://example.com/a%28b%29) **s**');
    expect(renderHtml('T', 'd', blocks)).toContain('<p>bad <a href="https://example.com/a(b)">ok</a> <strong>s</strong></p>');
  });

  it('fences code longer than any backtick run inside it', () => {
    const md = renderMarkdown('T', [{ t: 'code', lang: 'md', code: 'use ``` fences' }]);
    expect(md).toContain('````md\nuse ``` fences\n````');
  });
});
