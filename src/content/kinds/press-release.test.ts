import { describe, expect, it } from 'vitest';
import { generateContent } from '../generate.js';
import { sampleInput, SAMPLE_TARGET } from '../sample-input.js';
import type { PressReleaseOptions } from '../types.js';

interface Quote {
  speaker: string;
  title: string;
  text: string;
  mode: string;
}

function release(pressRelease?: PressReleaseOptions, target = SAMPLE_TARGET) {
  return generateContent(
    sampleInput({ kind: 'press_release', objective: 'Announce the opening of our second bakery in Portland', pressRelease, target }),
  );
}

describe('press_release', () => {
  it('has a headline, a dateline lede, About boilerplate, a media contact and ends with ###', () => {
    const out = release();
    const data = out.kindData as { headline: string; dateline: string; boilerplate: string; mediaContact: unknown };
    expect(data.headline).toBe(out.title);
    expect(data.headline).toMatch(/^Crumb & Co Announces /);
    expect(data.dateline).toBe('PORTLAND, March 4, 2025 \u2014');
    expect(out.markdown).toContain(`# ${data.headline}\n\n**${data.dateline}** Crumb & Co today `);
    expect(data.boilerplate).toBe(SAMPLE_TARGET.brandKit.pressRelease.boilerplate);
    expect(out.markdown).toContain(`## About Crumb & Co\n\n${data.boilerplate}\n\n`);
    expect(data.mediaContact).toEqual(SAMPLE_TARGET.brandKit.pressRelease.mediaContact);
    expect(out.markdown).toContain('## Media contact\n\n- **Dana Ortiz**\n- [press@crumbandco.example](mailto:press@crumbandco.example)\n- [+1 503 555 0142](tel:+15035550142)');
    expect(out.markdown.endsWith('\n\n###\n')).toBe(true);
    expect(out.markdown.indexOf('## Media contact')).toBeLessThan(out.markdown.indexOf('## Sources'));
  });

  it('prefers the dateline, boilerplate and contact given in the input', () => {
    const out = release({
      dateline: { city: 'Seattle', date: '2025-06-01' },
      boilerplate: 'Crumb & Co, founded in 2019, works with 300 bakeries.',
      mediaContact: { name: 'Sam Lee', email: 'sam@crumbandco.example' },
    });
    expect(out.kindData.dateline).toBe('SEATTLE, June 1, 2025 \u2014');
    expect(out.kindData.boilerplate).toBe('Crumb & Co, founded in 2019, works with 300 bakeries.');
    expect(out.kindData.mediaContact).toEqual({ name: 'Sam Lee', email: 'sam@crumbandco.example' });
    expect(out.markdown).toContain('**Sam Lee**');
    expect(release({ dateline: { date: 'Early June 2025' } }).kindData.dateline).toBe('PORTLAND, Early June 2025 \u2014');
  });

  it('omits the media contact section when there is none', () => {
    const target = structuredClone(SAMPLE_TARGET);
    target.brandKit.pressRelease.mediaContact = null;
    const out = release(undefined, target);
    expect(out.kindData.mediaContact).toBeNull();
    expect(out.markdown).not.toContain('Media contact');
    expect(out.markdown.endsWith('\n\n###\n')).toBe(true);
  });

  it('writes one spokesperson quote when none is given', () => {
    const quotes = release().kindData.quotes as Quote[];
    expect(quotes).toHaveLength(1);
    expect(quotes[0]!.mode).toBe('generate');
    expect(quotes[0]!.speaker).toMatch(/^[A-Z][a-z]+ [A-Z][a-z]+$/);
    expect(quotes[0]!.text.length).toBeGreaterThan(40);
  });

  it('handles each quote in its mode, defaulting to the brand kit mode', () => {
    const rough = 'we are  very excited to open our second bakery ,it is really a big day for us';
    const out = release({
      quotes: [
        { speaker: 'Ana Ruiz', title: 'Founder', text: 'Exactly  as   written, no edits!!', mode: 'verbatim' },
        { speaker: 'Ben Okoro', title: 'Head Baker', text: rough },
        { speaker: 'Cleo Park', text: 'ignored', mode: 'generate' },
      ],
    });
    const [verbatim, polished, generated] = out.kindData.quotes as Quote[];
    expect(verbatim).toEqual({ speaker: 'Ana Ruiz', title: 'Founder', text: 'Exactly  as   written, no edits!!', mode: 'verbatim' });
    expect(polished!.mode).toBe('polish');
    expect(polished!.text).toBe('We are thrilled to open our second bakery, it is a big day for us.');
    expect(generated!.mode).toBe('generate');
    expect(generated!.text).not.toBe('ignored');
    expect(generated!.text.length).toBeGreaterThan(40);
    for (const q of [polished!, generated!]) expect(out.markdown).toContain(`> \u201c${q.text}\u201d`);
    expect(out.markdown).toContain('> \u2014 Ben Okoro, Head Baker, Crumb & Co');
  });

  it('falls back to a generated quote when verbatim or polish has no text', () => {
    const out = release({ quotes: [{ speaker: 'Dee', mode: 'verbatim' }] });
    expect((out.kindData.quotes as Quote[])[0]!.mode).toBe('generate');
  });
});
