import type { Check } from '../check.js';
import { expectSuccess } from '../checks/expect.js';
import { expectEqual } from '../../shared/outcomes.js';
import type { Session } from '../session.js';
import { requestBodySchema } from './schema.js';

export const DEFAULTS = 'openapi.yaml: a field left out takes the default its schema states, as if it had been sent: keywords max 10, topics count 5, quotes count 1, a chat\'s title "Chat about <target name>"';

/** A text with more distinct words worth keeping than any default or maximum asks for. */
const LONG_TEXT = Array.from({ length: 60 }, (_, i) => `topic${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))} harvest`).join(', ');

function stated(op: string, field: string): number {
  const value = requestBodySchema(op)?.properties?.[field]?.default;
  if (typeof value !== 'number') throw new Error(`openapi.yaml states no default for ${op}.${field}`);
  return value;
}

interface Defaulted {
  op: string;
  field: string;
  body: (s: Session) => Promise<Record<string, unknown>>;
}

const DEFAULTED: Defaulted[] = [
  { op: 'extractKeywords', field: 'max', body: async () => ({ text: LONG_TEXT }) },
  { op: 'suggestTopics', field: 'count', body: async (s) => ({ targetId: (await s.fixtures.target()).id }) },
  { op: 'suggestQuotes', field: 'count', body: async () => ({ speaker: 'Ada Example', topic: 'cold brew at home', mode: 'generate' }) },
];

async function countsAsDefault(s: Session, d: Defaulted): Promise<void> {
  const value = stated(d.op, d.field);
  const body = await d.body(s);
  const without = await s.client.op(d.op, {}, { body });
  expectSuccess(without, `${DEFAULTS}: ${d.op} without ${d.field}`);
  const sent = await s.client.op(d.op, {}, { body: { ...body, [d.field]: value } });
  expectSuccess(sent, `${DEFAULTS}: ${d.op} with ${d.field} ${value}`);
  expectEqual(without.json?.data?.length, sent.json?.data?.length, `${DEFAULTS}: ${d.op} without ${d.field} answers as many items as with ${d.field}=${value}`);
  expectEqual(without.json?.data?.length, value, `${DEFAULTS}: ${d.op} without ${d.field} (default ${value}) answers that many items`);
}

export function defaultChecks(): Check[] {
  const checks: Check[] = DEFAULTED.map((d) => ({
    id: `properties.default.${d.op}.${d.field}`,
    title: `${DEFAULTS} — ${d.op}.${d.field}`,
    level: 'strict' as const,
    covers: [d.op],
    requests: 4,
    run: (s: Session) => countsAsDefault(s, d),
  }));
  checks.push({
    id: 'properties.default.createChat.title',
    title: `${DEFAULTS} — createChat.title`,
    level: 'strict',
    covers: ['createChat'],
    requests: 4,
    run: async (s) => {
      const target = await s.fixtures.target();
      const got = await s.client.op('getTarget', { targetId: target.id });
      expectSuccess(got, `${DEFAULTS}: getTarget`);
      const made = await s.client.op('createChat', {}, { body: { targetId: target.id } });
      expectSuccess(made, `${DEFAULTS}: createChat without title`);
      expectEqual(made.json?.title, `Chat about ${got.json.name}`, `${DEFAULTS}: the title of a chat made without one`);
    },
  });
  return checks;
}
