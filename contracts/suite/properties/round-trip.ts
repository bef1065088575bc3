import fc from 'fast-check';
import type { Check } from '../check.js';
import { expectSuccess } from '../checks/expect.js';
import type { Reply } from '../http-client.js';
import { ContractFailure } from '../../shared/outcomes.js';
import type { Session } from '../session.js';
import { fieldsOf, nonNull, requestBodySchema, type Json } from './schema.js';

const schemaOf = (subject: Subject): Json => requestBodySchema(subject.op) ?? {};
import { propertySeed, runProperty } from './run-property.js';
import { SUBJECTS, type Subject } from './subjects.js';
import { objectFor, type Context, type Shape } from './values.js';

export { casesFor };

export const ROUND_TRIP = 'openapi.yaml: a body its schema accepts at the edges of validity (every optional field at its longest, only the required ones at their shortest, lengths counted in characters with characters outside the BMP, decomposed accents and markup; every enum value in turn) is accepted, and its creation, its GET and its item in the list answer exactly what was sent';

/** Every enum's values in turn over this many bodies: at least three (longest, shortest, drawn). */
function casesFor(schema: Json): number {
  const sizes = fieldsOf(schema).map((f) => (f.schema.enum ?? nonNull(f.schema.items ?? {}).schema.enum ?? []).length as number);
  return Math.max(3, ...sizes);
}

/** Where `sent` differs from what the server answered: every sent field, objects field by field (an answer may add defaults). */
export function differences(sent: unknown, answered: unknown, schema: Json = {}, path = 'body'): string[] {
  if (sent !== null && typeof sent === 'object' && !Array.isArray(sent)) {
    if (answered === null || typeof answered !== 'object') return [`${path}: sent an object, answered ${JSON.stringify(answered)?.slice(0, 80)}`];
    return Object.entries(sent).flatMap(([k, v]) => differences(v, (answered as Json)[k], nonNull(schema.properties?.[k] ?? {}).schema, `${path}.${k}`));
  }
  if (JSON.stringify(sent) === JSON.stringify(answered)) return [];
  // A set of enum values (uniqueItems) may come back in another order.
  const asSet = (v: unknown) => (Array.isArray(v) ? JSON.stringify([...v].map(String).sort()) : undefined);
  if (schema.uniqueItems && Array.isArray(schema.items?.enum) && asSet(sent) === asSet(answered)) return [];
  return [`${path}: sent ${JSON.stringify(sent)?.slice(0, 120)}, answered ${JSON.stringify(answered)?.slice(0, 120)}`];
}

/** The fields two representations of one resource both carry, where they differ. */
function disagreements(a: Json, b: Json, what: string): string[] {
  return Object.keys(a)
    .filter((k) => k in b && JSON.stringify(a[k]) !== JSON.stringify(b[k]))
    .map((k) => `${what}: ${k} is ${JSON.stringify(a[k])?.slice(0, 80)} in one and ${JSON.stringify(b[k])?.slice(0, 80)} in the other`);
}

async function listed(s: Session, op: string, path: Record<string, string>, id: string): Promise<Json | undefined> {
  let cursor: string | undefined;
  for (let page = 0; page < 20; page++) {
    const reply = await s.client.op(op, path, { query: { limit: '100', ...(cursor ? { cursor } : {}) } });
    expectSuccess(reply, `${ROUND_TRIP}: ${op}`);
    const found = (reply.json?.data as Json[] | undefined)?.find((item) => item.id === id);
    if (found || !reply.json?.nextCursor) return found;
    cursor = reply.json.nextCursor;
  }
  return undefined;
}

async function roundTrip(s: Session, subject: Subject, body: Json, path: Record<string, string>): Promise<void> {
  const made: Reply = await s.client.op(subject.op, path, { body });
  try {
    expectSuccess(made, `${ROUND_TRIP}: ${subject.op} with ${JSON.stringify(body).slice(0, 200)}`);
    const problems = differences(body, made.json, schemaOf(subject));
    if (problems.length) throw new ContractFailure(`${ROUND_TRIP}: ${subject.op} answered another value than sent: ${problems.slice(0, 3).join('; ')}`);
    const read = subject.readBack?.(made.json, path);
    if (!read) return;
    const got = await s.client.op(read.op, read.path);
    expectSuccess(got, `${ROUND_TRIP}: ${read.op} after ${subject.op}`);
    const readProblems = [...differences(body, got.json, schemaOf(subject)), ...disagreements(made.json, got.json, `${subject.op} and ${read.op}`)];
    if (readProblems.length) throw new ContractFailure(`${ROUND_TRIP}: ${read.op} reads back another value: ${readProblems.slice(0, 3).join('; ')}`);
    const list = subject.listedIn?.(made.json, path);
    if (!list) return;
    const item = await listed(s, list.op, list.path, String(made.json.id));
    if (!item) throw new ContractFailure(`${ROUND_TRIP}: ${list.op} does not list ${made.json.id}, which ${subject.op} made`);
    const listProblems = disagreements(item, got.json, `${list.op}'s item and ${read.op}`);
    if (listProblems.length) throw new ContractFailure(`${ROUND_TRIP}: the list and the GET disagree: ${listProblems.slice(0, 3).join('; ')}`);
  } finally {
    if (made.status < 300) await subject.cleanUp?.(s, made.json, path);
  }
}

/**
 * The edges, run before any drawn body: every optional field at its longest once per enum value
 * (body n takes value n of every enum, so that all are sent), then the required fields alone at
 * their shortest.
 */
export function edgeBodies(schema: Json, cases: number, seed: number, ctx: (enumIndex?: number) => Context): Json[] {
  const shaped: Array<[Shape, number]> = [...Array.from({ length: cases }, (_, i): [Shape, number] => ['longest', i]), ['shortest', 0]];
  return shaped.map(([shape, i]) => fc.sample(objectFor(schema, shape, ctx(i)) as fc.Arbitrary<Json>, { seed: seed + i, numRuns: 1 })[0] as Json);
}

function roundTripCheck(subject: Subject, schema: Json): Check {
  const cases = casesFor(schema);
  return {
    id: `properties.round-trip.${subject.op}`,
    title: `${ROUND_TRIP} — ${subject.op}`,
    level: 'strict',
    covers: [subject.op],
    requests: (cases + 2) * 8,
    run: async (s) => {
      const { path, given } = await subject.context(s);
      const ctx = (enumIndex?: number): Context => ({ unique: s.newTargetName('edge').slug, given, enumIndex });
      const seed = propertySeed(s);
      const examples = edgeBodies(schema, cases, seed, ctx);
      const drawn = objectFor(schema, 'drawn', ctx()) as fc.Arbitrary<Json>;
      await runProperty(ROUND_TRIP, drawn, (body) => roundTrip(s, subject, body, path), { seed, examples, extraRuns: 2 });
    },
  };
}

export function roundTripChecks(): Check[] {
  return SUBJECTS.filter((subject) => subject.readBack).flatMap((subject) => {
    const schema = requestBodySchema(subject.op);
    return schema ? [roundTripCheck(subject, schema)] : [];
  });
}
