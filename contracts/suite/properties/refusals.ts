import fc from 'fast-check';
import type { Check } from '../check.js';
import { expectError } from '../checks/expect.js';
import { ContractFailure } from '../../shared/outcomes.js';
import { requestBodySchema, withField, type Json } from './schema.js';
import { SUBJECTS, type Subject } from './subjects.js';
import { brokenConstraints, objectFor, type Context } from './values.js';

export const REFUSALS = 'openapi.yaml: a body that breaks one constraint of its schema (a length, a pattern, an enum, a type, a bound, an item count, a required field, one extra field on a closed object) gets 400 VALIDATION_ERROR whose details.fields name that field';

/** The paths a VALIDATION_ERROR names (details.fields[].path), as the contract shapes them. */
export function namedPaths(json: any): string[] {
  const fields = json?.details?.fields;
  return Array.isArray(fields) ? fields.map((f: { path?: unknown }) => String(f?.path ?? '')) : [];
}

/** Whether a named path is the field's (`body.brandKit.seo`), or inside it (an item of an array). */
export function namesField(paths: string[], field: string): boolean {
  if (field === '') return paths.some((p) => p === 'body' || p.startsWith('body'));
  const dotted = `body.${field}`;
  return paths.some((p) => {
    const normal = p.replace(/\[(\d+)\]/g, '.$1').replace(/^\$\.?/, '').replace(/^(?!body\.)/, 'body.');
    return normal === dotted || normal.startsWith(`${dotted}.`);
  });
}

/** The smallest valid body of a schema (required fields at their shortest), with the context's ids. */
export function smallestBody(schema: Json, ctx: Context, seed: number): Json {
  const arb = objectFor(schema, 'shortest', ctx);
  if (!arb) throw new ContractFailure(`${REFUSALS}: the suite cannot make a valid body of this schema`);
  return fc.sample(arb, { seed, numRuns: 1 })[0] as Json;
}

function refusalCheck(subject: Subject, schema: Json): Check {
  // An update's nested objects are the creation's (BrandKitInput): its own fields are broken here, theirs by the creation.
  const broken = brokenConstraints(schema).filter((b) => !subject.op.startsWith('update') || !b.field.includes('.'));
  return {
    id: `properties.refusals.${subject.op}`,
    title: `${REFUSALS} — ${subject.op} (${broken.length} constraints)`,
    level: 'strict',
    covers: [subject.op],
    requests: broken.length + 6,
    run: async (s) => {
      const { path, given } = await subject.context(s);
      const patch = subject.op.startsWith('update');
      // An update takes any one field: the broken one alone is the body; a creation breaks one field of a valid body.
      const base = patch ? {} : smallestBody(schema, { unique: s.newTargetName('refused').slug, given }, 1);
      for (const b of broken) {
        const body = b.field === '' ? {} : b.field === 'unexpectedField' && patch ? { unexpectedField: 1 } : withField(base, b.field.split('.'), b.value, b.omit);
        if (patch && b.omit) continue; // an update requires nothing
        const reply = await s.client.op(subject.op, path, { body });
        if (reply.status < 300) await subject.cleanUp?.(s, reply.json, path);
        expectError(reply, 400, 'VALIDATION_ERROR', `${REFUSALS}: ${subject.op} with ${b.label} broken (${JSON.stringify(body).slice(0, 160)})`);
        const paths = namedPaths(reply.json);
        if (!namesField(paths, b.field)) throw new ContractFailure(`${REFUSALS}: ${subject.op} with ${b.label} broken: details.fields name ${JSON.stringify(paths)}, not body.${b.field}`);
      }
    },
  };
}

/** One refusal check per operation whose body the properties generate. */
export function refusalChecks(): Check[] {
  return SUBJECTS.flatMap((subject) => {
    const schema = requestBodySchema(subject.op);
    return schema ? [refusalCheck(subject, schema)] : [];
  });
}
