import fc from 'fast-check';
import { AdvanceClock, CreateTarget, ListBuilds, ListTransactions, ReadBalance } from './commands/accounts.js';
import { ConcurrentFirsts, CreateBuild, GetBuild, type BuildSpec, type KeyChoice } from './commands/builds.js';
import type { As, ModelCommand, Via } from './commands/common.js';
import { CreateKey, RevokeKey, RotateKey, UseKey } from './commands/keys.js';
import { Purchase, type PurchaseKey } from './commands/purchases.js';
import { IDEMPOTENCY_WINDOW_MS, KIND_PRICE, STAGES } from './model.js';

export interface Generation {
  strict: boolean;
  /** The suite moves the clock and makes accounts (the simulator's control API). */
  controlled: boolean;
  /** The server answers MCP at /mcp (strict level only). */
  mcp: boolean;
  /** Purchases may run (the simulator: they cost nothing). */
  purchases: boolean;
  maxCommands: number;
  /** fast-check's replay path of the commands of a failing sequence (with its seed and path). */
  replayPath?: string;
}

/** Clock moves that sit on the edges of what depends on time: a rate-limit window, a build's run, the 24-hour idempotency window. */
const HOUR = 60 * 60_000;
const CLOCK_MOVES = [1_000, 61_000, 10 * 60_000, HOUR, 12 * HOUR, IDEMPOTENCY_WINDOW_MS - 60_000, IDEMPOTENCY_WINDOW_MS - 1_000, IDEMPOTENCY_WINDOW_MS, IDEMPOTENCY_WINDOW_MS + HOUR];

/**
 * The calls a sequence is made of, as fast-check commands. Each names what it acts on by a
 * small number taken modulo what exists when it runs (the n-th target, build, key), so that a
 * shrunk sequence still means something; a command with nothing to act on is left out.
 * What a level may not call (what openapi.yaml infers, at the documented level) is never generated.
 */
export function sequences(g: Generation): fc.Arbitrary<Iterable<ModelCommand>> {
  const account = fc.constantFrom('A', 'B');
  const n = fc.nat(7);
  const via: fc.Arbitrary<Via> = g.strict && g.mcp ? fc.constantFrom<Via>('rest', 'rest', 'mcp') : fc.constant<Via>('rest');
  const as = fc.constantFrom<As>('readWrite', 'readWrite', 'readOnly', 'writeOnly', 'revoked', 'other');
  const asVia = fc.tuple(as, via);
  const kinds = g.strict ? Object.keys(KIND_PRICE) : ['blog'];
  const spec: fc.Arbitrary<BuildSpec> = fc.record({
    kind: fc.constantFrom(...kinds),
    // One build in four fails (the simulator's [fail:<stage>] input), where the suite can wait for it.
    fail: g.controlled ? fc.oneof({ arbitrary: fc.constant(undefined), weight: 3 }, { arbitrary: fc.constantFrom(...STAGES), weight: 1 }) : fc.constant(undefined),
  });
  // No key at all only at the strict level: the spec recommends one and does not say a call without one is accepted.
  const keyChoice: fc.Arbitrary<KeyChoice> = fc.oneof(
    { arbitrary: fc.constant<KeyChoice>({ mode: 'fresh' }), weight: 3 },
    { arbitrary: fc.constant<KeyChoice>(g.strict ? { mode: 'none' } : { mode: 'fresh' }), weight: 1 },
    { arbitrary: fc.record({ mode: fc.constant('reuse' as const), n, sameBody: fc.boolean() }), weight: 4 },
  );
  const createBuild = fc.tuple(account, n, fc.boolean(), keyChoice, spec, via).map(([a, t, foreign, k, s, v]) => new CreateBuild(a, t, foreign && t % 4 === 0, k, s, v));
  // Repeated arbitraries weigh more: builds and their replays, and clock moves, are what most rules are about.
  const commands: Array<fc.Arbitrary<ModelCommand>> = [
    fc.tuple(account, asVia).map(([a, [k, v]]) => new CreateTarget(a, k, v)),
    createBuild,
    createBuild,
    createBuild,
    fc.tuple(account, n, fc.integer({ min: 2, max: 3 })).map(([a, t, copies]) => new ConcurrentFirsts(a, t, copies)),
    fc.tuple(account, n, asVia).map(([a, b, [k, v]]) => new GetBuild(a, b, k, v)),
    fc.tuple(account, asVia).map(([a, [k, v]]) => new ReadBalance(a, k, v)),
  ];
  if (g.controlled) {
    const move = fc.constantFrom(...CLOCK_MOVES).map((ms) => new AdvanceClock(ms));
    commands.push(move, move);
  }
  if (g.strict) {
    commands.push(
      account.map((a) => new ListBuilds(a)),
      account.map((a) => new ListTransactions(a)),
      fc.tuple(account, fc.nat(2)).map(([a, s]) => new CreateKey(a, s)),
      fc.tuple(account, n).map(([a, k]) => new RotateKey(a, k)),
      fc.tuple(account, n).map(([a, k]) => new RevokeKey(a, k)),
      fc.tuple(account, n, fc.boolean(), g.mcp ? fc.constantFrom<Via>('rest', 'mcp') : via).map(([a, k, w, v]) => new UseKey(a, k, w, v)),
    );
  }
  if (g.strict && g.purchases) {
    const purchaseKey: fc.Arbitrary<PurchaseKey> = fc.oneof(
      fc.constant<PurchaseKey>({ mode: 'fresh' }),
      fc.record({ mode: fc.constant('reuse' as const), n, sameBundle: fc.boolean() }),
    );
    commands.push(fc.tuple(account, fc.nat(1), purchaseKey).map(([a, b, k]) => new Purchase(a, b, k)));
  }
  return fc.commands(commands, { maxCommands: g.maxCommands, size: 'max', replayPath: g.replayPath });
}
