import { parseArgs } from 'node:util';
import { DEFAULT_SEED, parseSpeed, type SimulatorOptions } from '../simulator.js';
import { withOptionalValues } from './optional-values.js';

export const DEFAULT_PORT = 4010;
export const DEFAULT_HOST = '127.0.0.1';

export interface ServeOptions {
  port: number;
  host: string;
  simulator: SimulatorOptions;
  quiet: boolean;
  /** How long a stop lets requests finish before closing what is left. */
  drainMs: number;
}

export const USAGE = `Usage: content-sim [serve] [options]

Serves the Content Generation Service simulator over HTTP.

Options:
  --port <n>          Port to listen on (env PORT; default ${DEFAULT_PORT}; 0 picks a free one)
  --host <addr>       Address to bind (env HOST; default ${DEFAULT_HOST})
  --seed <text>       Seed of every id, key and word (env SIM_SEED; default "${DEFAULT_SEED}")
  --speed <s>         Pipeline speed: realistic (3-8 min a blog), fast (default, seconds),
                      instant, or a factor such as 120 (env SIM_SPEED)
  --frozen [iso]      Freeze the clock, at the given instant or now; move it with
                      POST /_sim/clock/advance (env SIM_FROZEN_AT)
  --public-url <url>  The address clients reach when behind a proxy (env SIM_PUBLIC_URL):
                      the OAuth issuer and the MCP resource. Default: the listening address
  --deterministic-secrets
                      Draw created keys and share tokens from the seed, for byte-identical
                      replays. UNSAFE: anyone who knows the seed can derive them
  --control-token <t> Require this token in X-Control-Token on /_sim (env SIM_CONTROL_TOKEN);
                      without one, /_sim answers loopback clients only
  --drain-timeout <s> On SIGTERM/SIGINT, let requests finish for at most s seconds (default 5);
                      a second signal stops at once
  --no-control        Do not serve the /_sim control API
  --no-rate-limits    Lift the spec's rate limits (for load tests); headers stay
  --quiet             Do not log requests
  -h, --help          Show this help
  -v, --version       Show the version
`;

/** Limits so high no load test reaches them, while the headers keep their meaning. */
export const UNLIMITED = { perKey: { default: 1e9, 'build-create': 1e9, generation: 1e9 }, perUser: 1e9 };

export class UsageError extends Error {}

/** Reads the command line (and the environment) into serve options; throws UsageError on bad input. */
export function parseServeOptions(argv: string[], env: NodeJS.ProcessEnv): ServeOptions | 'help' | 'version' {
  const { values, positionals } = parseArgs({
    args: withOptionalValues(argv),
    allowPositionals: true,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      seed: { type: 'string' },
      speed: { type: 'string' },
      frozen: { type: 'string' },
      'public-url': { type: 'string' },
      'deterministic-secrets': { type: 'boolean' },
      'control-token': { type: 'string' },
      'drain-timeout': { type: 'string' },
      'no-control': { type: 'boolean' },
      'no-rate-limits': { type: 'boolean' },
      quiet: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean', short: 'v' },
    },
  });
  if (values.help) return 'help';
  if (values.version) return 'version';
  if (positionals.length > 1 || (positionals[0] !== undefined && positionals[0] !== 'serve')) {
    throw new UsageError(`unknown command: ${positionals.join(' ')}`);
  }
  const port = Number(values.port ?? env.PORT ?? DEFAULT_PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be 0 to 65535, not ${values.port ?? env.PORT}`);
  const speedText = values.speed ?? env.SIM_SPEED;
  try {
    parseSpeed(speedText);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const frozenText = values.frozen ?? env.SIM_FROZEN_AT;
  let frozenAt: number | undefined;
  if (frozenText !== undefined) {
    frozenAt = frozenText === '' || frozenText === 'now' ? Date.now() : Date.parse(frozenText);
    if (!Number.isFinite(frozenAt)) throw new UsageError(`--frozen takes an ISO 8601 time, not ${frozenText}`);
  }
  const drainSeconds = Number(values['drain-timeout'] ?? 5);
  if (!Number.isFinite(drainSeconds) || drainSeconds < 0 || drainSeconds > 600) throw new UsageError(`--drain-timeout must be 0 to 600 seconds, not ${values['drain-timeout']}`);
  const controlToken = values['control-token'] ?? env.SIM_CONTROL_TOKEN;
  if (controlToken !== undefined && controlToken.length < 16) throw new UsageError('--control-token must be at least 16 characters');
  const publicUrl = values['public-url'] ?? env.SIM_PUBLIC_URL;
  if (publicUrl !== undefined && !/^https?:\/\/[^/?#]+\/?$/.test(publicUrl)) {
    throw new UsageError(`--public-url takes an origin such as https://sim.example.com, not ${publicUrl}`);
  }
  return {
    drainMs: Math.round(drainSeconds * 1000),
    port,
    host: values.host ?? env.HOST ?? DEFAULT_HOST,
    quiet: values.quiet ?? false,
    simulator: {
      seed: values.seed ?? env.SIM_SEED ?? DEFAULT_SEED,
      speed: speedText as SimulatorOptions['speed'],
      frozenAt,
      ...(publicUrl ? { publicUrl } : {}),
      ...(values['deterministic-secrets'] ? { deterministicSecrets: true } : {}),
      ...(controlToken ? { controlToken } : {}),
      control: !values['no-control'],
      ...(values['no-rate-limits'] ? { rateLimits: UNLIMITED } : {}),
    },
  };
}
