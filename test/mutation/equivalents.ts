/**
 * Survivors that are not faults of the contract: the mutant changes nothing a client can see
 * (generated prose, a cache that only saves work, an order nobody observes, a bound another
 * bound already enforces). Each says why; they are out of the score (score.ts).
 */
export interface Equivalent {
  /** The file, from the repository root. */
  file: string;
  line: number;
  /** Stryker's mutator name, e.g. ConditionalExpression. */
  mutator: string;
  /** Code on that line the mutant changes: the test of this list fails when the line moves. */
  code: string;
  /** The replacement code, when two mutants of one mutator share the line. */
  replacement?: string;
  reason: string;
}

const PROSE = 'the words of a message or description: a change of prose is not a contract fault';
const DEAD = 'no caller: nothing in src/ calls it, so no request can reach it';

export const EQUIVALENTS: readonly Equivalent[] = [
  { file: 'src/ledger/bundles.ts', line: 15, mutator: 'StringLiteral', code: "name: 'Starter'", reason: "a bundle's display name: openapi.yaml fixes no bundle names, any string is one" },
  { file: 'src/ledger/ledger.ts', line: 17, mutator: 'ConditionalExpression', code: 'bundleId === undefined', reason: 'an absent bundleId and one set to undefined serialize alike: JSON leaves both out' },
  { file: 'src/ledger/ledger.ts', line: 26, mutator: 'BlockStatement', code: 'export function grant', reason: DEAD },
  { file: 'src/ledger/ledger.ts', line: 27, mutator: 'StringLiteral', code: "'grant'", reason: DEAD },
  { file: 'src/ledger/ledger.ts', line: 31, mutator: 'StringLiteral', code: "what = 'This build'", reason: PROSE },
  { file: 'src/ledger/ledger.ts', line: 37, mutator: 'StringLiteral', code: "counted(cost, 'token')", reason: PROSE },
  { file: 'src/ledger/ledger.ts', line: 45, mutator: 'CallExpression', code: 'assertAffordable(account, cost, what);', reason: 'both callers (builds-service, images-service) refuse an unaffordable charge before they call it; this second test never decides' },
  { file: 'src/ledger/ledger.ts', line: 52, mutator: 'StringLiteral', code: "'This build'", reason: PROSE },
  { file: 'src/ledger/ledger.ts', line: 57, mutator: 'StringLiteral', code: "'This image'", reason: PROSE },
  { file: 'src/ledger/purchases.ts', line: 22, mutator: 'StringLiteral', code: "notFound('token bundle', bundleId)", reason: PROSE },
  { file: 'src/ledger/purchases.ts', line: 23, mutator: 'ConditionalExpression', code: 'if (idempotencyKey !== null) {', reason: 'without a key nothing was remembered under null (line 38 remembers only keys), so looking null up finds nothing either way' },
  { file: 'src/ledger/purchases.ts', line: 28, mutator: 'StringLiteral', code: 'This Idempotency-Key was already used', reason: PROSE },
  { file: 'src/ledger/purchases.ts', line: 28, mutator: 'ObjectLiteral', code: 'throw new ApiError(409', reason: 'the details of a 409: openapi.yaml gives them no fields (only a quota names `details.quota`)' },
  { file: 'src/ledger/purchases.ts', line: 37, mutator: 'StringLiteral', code: 'Token bundle: ${bundle.name}', reason: PROSE },
  { file: 'src/ledger/purchases.ts', line: 38, mutator: 'ConditionalExpression', code: 'if (idempotencyKey !== null) account', reason: 'a purchase without a key remembered under null is never looked up (line 23 looks up keys only)' },
];
