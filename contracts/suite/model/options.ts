/**
 * Options of the model-based phase: random sequences of calls checked against a model of the
 * API. The seed replays a run exactly (same sequences, same shrinking) against the same
 * server; the path jumps straight to the failing sequence fast-check printed.
 */
export interface ModelOptions {
  /** Off with --no-model (CONTRACT_MODEL=0). */
  enabled: boolean;
  /** fast-check's seed; a fresh one per run when not given (the report prints it). */
  seed?: number;
  /** fast-check's replay path of a failing sequence (with its seed). */
  path?: string;
  /** How many sequences to try. */
  runs?: number;
  /** Stop trying new sequences after this long (shrinking a failure gets as long again). */
  timeBudgetMs?: number;
  /** The longest sequence generated. */
  maxCommands?: number;
}

export const MODEL_DEFAULTS = {
  simulator: { runs: 100, timeBudgetMs: 15_000, maxCommands: 30 },
  /** A real service: few sequences (each spends real tokens within --token-budget, waits out real rate limits). */
  realService: { runs: 4, timeBudgetMs: 45_000, maxCommands: 12 },
} as const;

export const MODEL_FLAG_ENV: Readonly<Record<string, string>> = {
  'model-seed': 'CONTRACT_MODEL_SEED',
  'model-path': 'CONTRACT_MODEL_PATH',
  'model-runs': 'CONTRACT_MODEL_RUNS',
  'model-time': 'CONTRACT_MODEL_TIME',
  'model-commands': 'CONTRACT_MODEL_COMMANDS',
};

export const MODEL_USAGE = `  --no-model               skip the model-based phase (CONTRACT_MODEL=0)
  --model-seed <n>         seed of the model-based phase's random sequences (default: a fresh one,
                           printed in the report); with the same server state it replays a run
  --model-path <path>      fast-check's path of a failing sequence, printed with a failure (with
                           --model-seed: replays that sequence and its shrinking at once)
  --model-runs <n>         sequences to try (default ${MODEL_DEFAULTS.simulator.runs} on the simulator, ${MODEL_DEFAULTS.realService.runs} elsewhere)
  --model-time <s>         stop starting sequences after s seconds (default ${MODEL_DEFAULTS.simulator.timeBudgetMs / 1000} on the simulator,
                           ${MODEL_DEFAULTS.realService.timeBudgetMs / 1000} elsewhere); shrinking a failure gets as long again
  --model-commands <n>     the longest sequence (default ${MODEL_DEFAULTS.simulator.maxCommands} on the simulator, ${MODEL_DEFAULTS.realService.maxCommands} elsewhere)`;

export const MODEL_HELP = `The model-based phase (check model-based.sequences, last) runs random sequences of calls over two
accounts and their keys (builds and Idempotency-Key replays, concurrent first calls, reads with other
keys and accounts, clock moves, key rotation and revocation, purchases, failing builds, MCP tool calls)
and checks every answer against a model of the API. On the simulator each sequence gets fresh accounts
with clocks of their own; elsewhere it uses the accounts of the keys given, moves no clock and spends
within --token-budget. A failure is shrunk to its shortest sequence and printed with a Node script
that reproduces it (BASE_URL=<url> node repro.mjs) and the --model-seed and --model-path that replay it.`;

export function modelOptionsFromEnv(env: Record<string, string | undefined>): ModelOptions {
  const integer = (name: string, scale = 1): number | undefined => {
    const raw = env[name];
    if (raw === undefined || raw === '') return undefined;
    const value = Number(raw);
    if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number, not ${raw}`);
    return Math.round(value * scale);
  };
  const seed = env.CONTRACT_MODEL_SEED;
  if (seed !== undefined && seed !== '' && !/^-?\d+$/.test(seed)) throw new Error(`CONTRACT_MODEL_SEED must be an integer, not ${seed}`);
  return {
    enabled: env.CONTRACT_MODEL !== '0' && env.CONTRACT_MODEL !== 'false',
    seed: seed ? Number(seed) | 0 : undefined,
    path: env.CONTRACT_MODEL_PATH || undefined,
    runs: integer('CONTRACT_MODEL_RUNS'),
    timeBudgetMs: integer('CONTRACT_MODEL_TIME', 1000),
    maxCommands: integer('CONTRACT_MODEL_COMMANDS'),
  };
}
