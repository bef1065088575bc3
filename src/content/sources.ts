/**
 * Research sources: how many depends on the research policy and mode; each is a plausible
 * report from a (fictional) publisher, retrieved a few minutes to hours before completion.
 */
import type { Rng } from '../random/rng.js';
import type { ContentInput, Source } from './types.js';
import { slugify, titleCase } from './text.js';
import { PUBLISHERS } from './vocabulary.js';

const TITLES = [
  'The State of {F} {year}',
  '{F}: Benchmarks and Trends for {year}',
  'How {A} Approach {F}',
  'What Drives Results in {F}? A Survey of {n} Organizations',
  '{F} Adoption Report',
  'Measuring the Impact of {F}',
  'A Field Guide to {F}',
  'Why {F} Projects Succeed or Stall',
  '{F} and Changing Customer Expectations',
  'Global {F} Outlook {year}',
  'Lessons From {n} {F} Programs',
  'The Economics of {F}',
  '{F}: Frequently Asked Questions',
  'Rethinking {F} for {A}',
] as const;

export function sourceCount(input: ContentInput, rng: Rng): number {
  if (input.researchPolicy === 'none') return 0;
  if (input.researchMode === 'deep') return rng.int(8, 12);
  return input.researchPolicy === 'required' ? rng.int(4, 7) : rng.int(2, 4);
}

/** ISO 8601 UTC time `minutesBefore` minutes (plus some seconds) before `iso`. */
export function timeBefore(iso: string, minutesBefore: number, seconds: number): string {
  const at = Date.parse(iso);
  const base = Number.isNaN(at) ? 0 : at;
  return new Date(base - minutesBefore * 60_000 - seconds * 1000).toISOString();
}

export function makeSources(input: ContentInput, focus: string, audience: string, year: number, rng: Rng): Source[] {
  const count = sourceCount(input, rng);
  if (count === 0) return [];
  const titles = rng.sample(TITLES, count);
  const publishers = rng.sample(PUBLISHERS, count);
  const focusTitle = titleCase(focus);
  const audienceTitle = titleCase(audience);
  return titles.map((template, i) => {
    const publisher = publishers[i]!;
    const published = year - rng.int(0, 2);
    const title = template
      .replace('{F}', focusTitle)
      .replace('{A}', audienceTitle)
      .replace('{year}', String(published))
      .replace('{n}', String(rng.int(3, 40) * 25));
    return {
      id: rng.uuid(),
      title,
      url: `https://${publisher.domain}/${publisher.section}/${published}/${slugify(title, 70)}`,
      publisher: publisher.name,
      retrievedAt: timeBefore(input.completedAt, rng.int(4, 300), rng.int(0, 59)),
    };
  });
}
