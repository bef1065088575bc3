import { describe, expect, it } from 'vitest';
import { generateContent } from '../content/generate.js';
import { sampleInput } from '../content/sample-input.js';
import { speechTextOf } from './speech-script.js';

describe('speechTextOf', () => {
  it('keeps the words and drops markup, links, images, citations, code and URLs', () => {
    const markdown = [
      '# A **bold** title',
      '',
      'Read [our guide](https://example.com/guide) now. [\\[3\\]](https://example.com/source)',
      '![Header illustration](data:image/svg+xml;base64,PHN2Zz4=)',
      '',
      '- First *point*',
      '2. Second point',
      '> Quoted `CRUMB_CO_API_KEY` line \\#tag',
      '',
      '```bash',
      'npm install secret-package',
      '```',
      '',
      '| Option | Type |',
      '| --- | --- |',
      '| dryRun | boolean |',
      '',
      'Visit https://example.com/more or <b>this</b>.',
      '---',
    ].join('\n');
    expect(speechTextOf(markdown)).toBe(
      [
        'A bold title',
        '',
        'Read our guide now.',
        '',
        'First point',
        'Second point',
        'Quoted CRUMB_CO_API_KEY line #tag',
        '',
        'Option, Type',
        'dryRun, boolean',
        '',
        'Visit or this.',
      ].join('\n'),
    );
  });

  it('leaves no Markdown syntax in a generated deliverable', () => {
    for (const kind of ['blog', 'doc', 'social', 'press_release'] as const) {
      const text = speechTextOf(generateContent(sampleInput({ kind, generateImages: true })).markdown);
      expect(text, kind).not.toMatch(/https?:|data:|\]\(|```|^#{1,6} |\*\*|^\s*[-*] |\\[#\-[\]]/m);
      expect(text.split(/\s+/).length, kind).toBeGreaterThan(150);
    }
  });
});
