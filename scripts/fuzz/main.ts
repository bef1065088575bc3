/**
 * `npm run fuzz`: schema-driven fuzzing of both contracts against a fresh simulator.
 *
 *   npm run fuzz -- [--examples N] [--rounds R] [--seed S] [--minutes M] [--only service|control]
 *                   [--rate-limits] [--report file.json]
 *
 * The simulator runs with its rate limits lifted (so requests reach the handlers, not a 429)
 * unless --rate-limits keeps them.
 *
 * Prints, per document, the requests sent (positive and negative), the statuses, and the
 * count of 5xx, contract violations, transport failures, invalid requests answered 2xx and
 * failed stateful checks, with the first findings; exits 1 when any of those is not zero or
 * the simulator no longer answers /healthz.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { count, type Finding } from './runner.js';
import { runFuzz } from './session.js';

const { values } = parseArgs({
  options: {
    examples: { type: 'string', default: '300' },
    rounds: { type: 'string', default: '3' },
    seed: { type: 'string', default: '20' },
    minutes: { type: 'string', default: '20' },
    only: { type: 'string' },
    'rate-limits': { type: 'boolean', default: false },
    report: { type: 'string' },
  },
});
const budget = { examples: Number(values.examples), rounds: Number(values.rounds), seed: Number(values.seed), timeLimitMs: Number(values.minutes) * 60_000 };
const only = values.only === 'service' || values.only === 'control' ? values.only : undefined;

const started = Date.now();
const outcome = await runFuzz(budget, { only, rateLimits: values['rate-limits'] });
const seconds = ((Date.now() - started) / 1000).toFixed(0);

console.log(`fuzz: ${budget.examples} examples per operation and mode, ${budget.rounds} rounds, seed ${budget.seed}, rate limits ${values['rate-limits'] ? 'on' : 'lifted'}, ${seconds} s`);
for (const d of outcome.documents) {
  const total = d.requests.positive + d.requests.negative;
  console.log(
    `${d.document}: ${d.operations} operations, ${total} requests (${d.requests.positive} positive, ${d.requests.negative} negative); ` +
      `5xx ${count(d.serverErrors)}, violations ${count(d.violations)}, transport failures ${count(d.transport)}; ` +
      `invalid accepted (2xx) ${count(d.acceptedInvalid)}, stateful check failures ${count(d.stateful)}`,
  );
  console.log(`  statuses: ${Object.entries(d.statuses).map(([s, n]) => `${s}×${n}`).join(' ')}`);
  for (const [label, list] of [['5xx', d.serverErrors], ['violation', d.violations], ['transport', d.transport], ['invalid accepted', d.acceptedInvalid], ['stateful', d.stateful]] as const) {
    for (const f of firstPerOperation(list, 3)) {
      console.log(`  ${label}: ${f.request.method} ${f.request.path.slice(0, 160)} (${f.request.mode}${f.request.mutation ? `: ${f.request.mutation}` : ''}) → ${f.status}`);
      for (const p of f.problems.slice(0, 3)) console.log(`    ${p.slice(0, 300)}`);
    }
  }
}
if (!outcome.healthyAfter) console.log('the simulator no longer answers /healthz');
if (outcome.stderr.trim()) console.log(`simulator stderr (first 2000 characters):\n${outcome.stderr.slice(0, 2000)}`);
if (values.report) writeFileSync(values.report, JSON.stringify(outcome, null, 2));
process.exit(outcome.failed ? 1 : 0);

/** A few findings of each operation, so that one noisy operation does not hide the others. */
function firstPerOperation(list: Finding[], n: number): Finding[] {
  const seen = new Map<string, number>();
  return list.filter((f) => {
    const k = `${f.request.operation} ${f.problems[0]?.slice(0, 60)}`;
    seen.set(k, (seen.get(k) ?? 0) + 1);
    return seen.get(k)! <= n;
  });
}
