import { describe, expect, it } from 'vitest';
import { generateContent } from '../generate.js';
import { sampleInput, SAMPLE_TARGET } from '../sample-input.js';

const ids = Array.from({ length: 12 }, (_, i) => `deliverable-${i}`);

describe('blog', () => {
  it('has 3-6 H2 sections listed in kindData, an intro before them and a conclusion after', () => {
    for (const [i, id] of ids.entries()) {
      const out = generateContent(sampleInput({ deliverableId: id, qualityMode: i % 2 ? 'premium' : 'standard' }));
      const sections = out.kindData.sections as string[];
      expect(sections.length).toBeGreaterThanOrEqual(3);
      expect(sections.length).toBeLessThanOrEqual(6);
      const h2s = [...out.markdown.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
      expect(h2s.slice(0, sections.length)).toEqual(sections);
      // a conclusion heading follows the sections, then Sources
      expect(h2s).toHaveLength(sections.length + 2);
      expect(h2s.at(-1)).toBe('Sources');
      expect(out.markdown.indexOf(`## ${sections[0]}`)).toBeGreaterThan(out.markdown.indexOf('\n\n') + 50);
    }
  });

  it('reports a reading time that follows the word count', () => {
    const out = generateContent(sampleInput({ qualityMode: 'premium' }));
    expect(out.kindData.readingTimeMinutes).toBe(Math.ceil(out.wordCount / 225));
    expect(out.kindData.readingTimeMinutes).toBeGreaterThanOrEqual(3);
  });
});

describe('web_page', () => {
  it('has a hero headline, subheadline, feature blocks and a call to action', () => {
    const out = generateContent(sampleInput({ kind: 'web_page' }));
    const data = out.kindData as {
      headline: string;
      subheadline: string;
      features: Array<{ title: string; body: string }>;
      callToAction: { label: string; url: string };
    };
    expect(data.headline).toBe(out.title);
    expect(out.markdown).toContain(`# ${data.headline}\n\n${data.subheadline}`);
    expect(data.features.length).toBeGreaterThanOrEqual(3);
    for (const feature of data.features) expect(out.markdown).toContain(`### ${feature.title}\n\n${feature.body}`);
    expect(data.callToAction.url).toMatch(/^https:\/\//);
    expect(out.markdown).toContain(`[${data.callToAction.label}](${data.callToAction.url})`);
  });
});

describe('news', () => {
  it('opens with a dateline from the brand kit city and completedAt, then the lede', () => {
    const out = generateContent(sampleInput({ kind: 'news' }));
    expect(out.kindData.dateline).toBe('PORTLAND, March 4, 2025 \u2014');
    const lede = out.kindData.lede as string;
    expect(lede.length).toBeGreaterThan(40);
    expect(out.markdown).toContain(`# ${out.title}\n\n**PORTLAND, March 4, 2025 \u2014** ${lede}\n\n`);
  });

  it('reads as wire copy: no subheadings before the sources', () => {
    const out = generateContent(sampleInput({ kind: 'news' }));
    expect([...out.markdown.matchAll(/^## (.+)$/gm)].map((m) => m[1])).toEqual(['Sources']);
    expect(out.markdown).toMatch(/\u201c[^\u201d]+,\u201d said [A-Z][a-z]+ [A-Z][a-z]+, /);
  });

  it('uses the dateline city given in the input, else a default', () => {
    const given = generateContent(sampleInput({ kind: 'news', pressRelease: { dateline: { city: 'Lyon' } } }));
    expect(given.kindData.dateline).toBe('LYON, March 4, 2025 \u2014');
    const target = structuredClone(SAMPLE_TARGET);
    target.brandKit.pressRelease.datelineCity = '';
    const fallback = generateContent(sampleInput({ kind: 'news', target, completedAt: '2024-12-31T23:59:00Z' }));
    expect(fallback.kindData.dateline).toBe('NEW YORK, December 31, 2024 \u2014');
  });
});

describe('how_to', () => {
  it('numbers its steps 1..n and renders each with its instruction', () => {
    for (const [i, id] of ids.entries()) {
      const premium = i % 2 === 1;
      const out = generateContent(sampleInput({ kind: 'how_to', deliverableId: id, qualityMode: premium ? 'premium' : 'standard' }));
      const steps = out.kindData.steps as Array<{ number: number; title: string; instruction: string }>;
      expect(steps.map((s) => s.number)).toEqual(steps.map((_, j) => j + 1));
      expect(steps.length).toBeGreaterThanOrEqual(premium ? 7 : 5);
      expect(steps.length).toBeLessThanOrEqual(premium ? 9 : 7);
      let last = 0;
      for (const step of steps) {
        const at = out.markdown.indexOf(`### Step ${step.number}: ${step.title}\n\n${step.instruction}`);
        expect(at).toBeGreaterThan(last);
        last = at;
      }
    }
  });

  it('lists its prerequisites and estimates the time from its steps', () => {
    const out = generateContent(sampleInput({ kind: 'how_to' }));
    const prerequisites = out.kindData.prerequisites as string[];
    const steps = out.kindData.steps as unknown[];
    expect(prerequisites.length).toBeGreaterThanOrEqual(3);
    for (const item of prerequisites) expect(out.markdown).toContain(`\n- ${item}`);
    const minutes = out.kindData.estimatedMinutes as number;
    expect(minutes % 5).toBe(0);
    expect(minutes).toBeGreaterThanOrEqual(5 * steps.length);
    expect(minutes).toBeLessThanOrEqual(20 * steps.length);
  });

  it('titles a "how to" objective as such', () => {
    const out = generateContent(sampleInput({ kind: 'how_to', objective: 'How to bake sourdough bread at home' }));
    expect(out.title).toBe('How to Bake Sourdough Bread at Home');
  });
});

describe('doc', () => {
  it('has an overview, code blocks, a reference table and lists its sections', () => {
    const out = generateContent(sampleInput({ kind: 'doc' }));
    const sections = out.kindData.sections as string[];
    expect(sections.slice(0, 6)).toEqual(['Overview', 'Requirements', 'Installation', 'Configuration', 'Usage', 'Reference']);
    for (const s of sections) expect(out.markdown).toContain(`\n## ${s}\n`);
    expect(out.markdown).toMatch(/```bash\nnpm install @crumb-co\/[a-z0-9-]+\n```/);
    expect(out.markdown).toMatch(/```json\n\{[\s\S]+\}\n```/);
    expect(out.markdown).toContain('| Option | Type | Default | Description |');
    expect(out.html).toContain('<pre><code class="language-ts">');
    expect(out.html).toMatch(/<table><thead><tr><th>Option<\/th>/);
  });

  it('keeps the JSON sample valid JSON', () => {
    const out = generateContent(sampleInput({ kind: 'doc' }));
    const json = /```json\n([\s\S]+?)\n```/.exec(out.markdown)![1]!;
    expect(() => JSON.parse(json)).not.toThrow();
  });
});

describe('resource', () => {
  it('is a checklist of task items when the objective asks for one', () => {
    const out = generateContent(sampleInput({ kind: 'resource', objective: 'A launch checklist for a new bakery website' }));
    expect(out.kindData.format).toBe('checklist');
    const items = out.kindData.items as string[];
    expect(items.length).toBeGreaterThanOrEqual(9);
    for (const item of items) expect(out.markdown).toContain(`- [ ] ${item}`);
    expect(out.html).toContain('<input type="checkbox" disabled="disabled" />');
  });

  it('is a fill-in table for a template and chapters for a guide', () => {
    const template = generateContent(sampleInput({ kind: 'resource', objective: 'A campaign planning template for bakeries' }));
    expect(template.kindData.format).toBe('template');
    for (const field of template.kindData.items as string[]) expect(template.markdown).toMatch(new RegExp(`\\| ${field} \\|`));
    const guide = generateContent(sampleInput({ kind: 'resource', objective: 'A beginner guide to sourdough starters' }));
    expect(guide.kindData.format).toBe('guide');
    (guide.kindData.items as string[]).forEach((chapter, i) => expect(guide.markdown).toContain(`## Chapter ${i + 1}: ${chapter}`));
  });
});
