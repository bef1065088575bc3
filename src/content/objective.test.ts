import { describe, expect, it } from 'vitest';
import { generateContent } from './generate.js';
import { parseObjective } from './objective.js';
import { sampleInput } from './sample-input.js';
import { CONTENT_KINDS } from './types.js';

describe('parseObjective', () => {
  it('strips the instruction and finds topic, focus and audience', () => {
    const parts = parseObjective('Write a blog post about sustainable packaging for e-commerce brands.', 'Acme');
    expect(parts.topic).toBe('sustainable packaging for e-commerce brands');
    expect(parts.focus).toBe('sustainable packaging');
    expect(parts.audience).toBe('e-commerce brands');
  });

  it('reads a "how X can Y" clause into an object focus and a subject audience', () => {
    const parts = parseObjective('Write a blog post about how small bakeries can use Instagram to attract local customers', 'Acme');
    expect(parts.topic).toBe('how small bakeries can use Instagram to attract local customers');
    expect(parts.focus).toBe('Instagram for small bakeries');
    expect(parts.focusShort).toBe('Instagram');
    expect(parts.audience).toBe('small bakeries');
    expect(parts.topicNoun).toBe('Instagram for small bakeries');
  });

  it('turns imperatives and how-tos into gerunds and skips vague heads', () => {
    expect(parseObjective('How to bake sourdough bread at home', 'Acme')).toMatchObject({ howTo: true, focus: 'baking sourdough bread' });
    expect(parseObjective('Improve customer retention with email', 'Acme').topic).toBe('improving customer retention with email');
    expect(parseObjective('Write about the benefits of remote work', 'Acme').focus).toBe('remote work');
  });

  it('notices announcements and rewrites "our" in the third person', () => {
    const parts = parseObjective('Announce our new partnership with Oatly', 'Acme');
    expect(parts.announce).toBe(true);
    expect(parts.topicThirdPerson).toBe('its new partnership with Oatly');
  });

  it('falls back to the brand for an empty objective and keeps hostile text as plain text', () => {
    expect(parseObjective('   ', 'Acme').topic).toBe('Acme');
    const hostile = parseObjective('<script>alert(1)</script> & "x"', 'Acme');
    expect(hostile.topic).toBe('<script>alert(1)</script> & "x"');
    expect(hostile.focus).toMatch(/^[\p{L}\p{N} '-]+$/u);
  });

  it('drops the prepositions and doubled articles an instruction leaves in front of the subject', () => {
    expect(parseObjective('A guide to cold brew at home', 'Acme')).toMatchObject({ topic: 'cold brew at home', focus: 'cold brew' });
    expect(parseObjective('Guide to latte art', 'Acme').topic).toBe('latte art');
    expect(parseObjective('An introduction to espresso', 'Acme').focus).toBe('espresso');
    expect(parseObjective('A primer on the the pour-over', 'Acme').topic).toBe('the pour-over');
    expect(parseObjective('Write a post about on grinders', 'Acme').topic).toBe('grinders');
    // "how to" is a clause, not a dangling "to"; a subject made only of such words is kept.
    expect(parseObjective('How to bake sourdough bread at home', 'Acme').topic).toBe('how to bake sourdough bread at home');
    expect(parseObjective('About', 'Acme').topic).toBe('about');
  });

  it.each(CONTENT_KINDS)('%s: "A guide to cold brew at home" reads without a stray "to"', (kind) => {
    const out = generateContent(sampleInput({ kind, objective: 'A guide to cold brew at home' }));
    expect(out.markdown).not.toMatch(/\bto to\b|covers to\b|guide to to\b|about to cold\b|on to cold\b/i);
    expect(out.markdown).toContain('cold brew');
  });
});
