import { describe, expect, it } from 'vitest';
import { generateContent } from '../generate.js';
import { sampleInput } from '../sample-input.js';
import { PREHEADER_MAX, SUBJECT_MAX } from './email.js';

describe('email', () => {
  it('has a subject and preheader within their limits, even for a very long objective', () => {
    const long = `Write an email about ${'the remarkably detailed and thoroughly researched '.repeat(12)}bread`;
    for (const objective of [long, 'Email our subscribers about sourdough workshops']) {
      for (const id of ['a', 'b', 'c', 'd']) {
        const out = generateContent(sampleInput({ kind: 'email', objective, deliverableId: id }));
        const subject = out.kindData.subject as string;
        const preheader = out.kindData.preheader as string;
        expect(subject.length).toBeGreaterThan(5);
        expect(subject.length).toBeLessThanOrEqual(SUBJECT_MAX);
        expect(preheader.length).toBeLessThanOrEqual(PREHEADER_MAX);
        expect(out.title).toBe(subject);
      }
    }
  });

  it('reads as an email: preheader, greeting, body, call to action, sign-off', () => {
    const out = generateContent(sampleInput({ kind: 'email' }));
    const data = out.kindData as { preheader: string; greeting: string; signOff: string; callToAction: { label: string; url: string } };
    const md = out.markdown;
    const order = [
      md.indexOf(`*${data.preheader}*`),
      md.indexOf(`\n\n${data.greeting}\n\n`),
      md.indexOf(`[${data.callToAction.label}](${data.callToAction.url})`),
      md.indexOf(data.signOff.replace('\n', '\\\n')),
      md.indexOf('## Sources'),
    ];
    expect(order.every((at) => at > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(data.signOff).toMatch(/\nThe Crumb & Co team$/);
  });
});
