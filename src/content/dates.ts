/** Dates as news copy writes them: "March 3, 2025"; datelines "CITY, March 3, 2025 \u2014". */
import { oneLine } from './text.js';
import { MONTHS } from './vocabulary.js';

/** "2025-03-03T10:00:00Z" -> "March 3, 2025"; null if the text does not start with a date. */
export function longDate(iso: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  if (!m) return null;
  const month = MONTHS[Number(m[2]) - 1];
  return month ? `${month} ${Number(m[3])}, ${m[1]}` : null;
}

export function yearOf(iso: string): number {
  const year = Number(iso.slice(0, 4));
  return Number.isFinite(year) && year > 1900 ? year : 2025;
}

/** A dateline: the city in capitals, then the date (an ISO date is written out, other text kept). */
export function dateline(city: string, date: string | undefined, completedAt: string): string {
  const given = date ? oneLine(date) : '';
  const when = (given && (longDate(given) ?? given)) || longDate(completedAt) || oneLine(completedAt);
  return `${oneLine(city).toUpperCase()}, ${when} \u2014`;
}
