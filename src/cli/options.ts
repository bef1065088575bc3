import { parseArgs, type ParseArgsConfig } from 'node:util';
import { isLoopback } from '../engine/control-guard.js';
import { DEFAULT_SEED, parseSpeed, type SimulatorOptions } from '../simulator.js';
import { HEAP_SHARE } from './memory-gauge.js';
import { CONNECTION_ARGS, CONNECTION_USAGE, parseConnectionOptions, type ConnectionOptions } from './connection-options.js';
import { parseQuotaOptions, QUOTA_ARGS, QUOTA_USAGE } from './quota-options.js';
import { explainParseError, UsageError } from './usage-errors.js';
import { rulesOffFrom } from '../client-report/rules-option.js';
import { fromEnvironment, fromFile, layered, type OptionSource, type OptionValues } from './option-sources.js';

export { UsageError };

export const DEFAULT_PORT = 4010;
export const DEFAULT_HOST = '127.0.0.1';

export interface ServeOptions {
  port: number;
  host: string;
  simulator: SimulatorOptions;
  quiet: boolean;
  /** Log the dashboard's own reads too (left out by default). */
  logDashboard: boolean;
  /** Request lines as text, or as JSON objects (pino); the start banner goes to stderr then. */
  logFormat: 'text' | 'json';
  /** How long a stop lets requests finish before closing what is left. */
  drainMs: number;
  /** Where the simulation is kept across restarts, and how often it is written. */
  stateFile?: { path: string; intervalMs: number; durability: 'every-write' | 'interval'; acceptDamagedTail?: boolean };
  /** Whether --seed (or SIM_SEED) was given: otherwise a state file's seed is taken. */
  seedGiven: boolean;
  /** Above this resident memory (MiB), calls that would store more get 503 CAPACITY_EXCEEDED. */
  maxMemoryMiB?: number;
  /** `--scenario`s: files (YAML or JSON) or names of shipped scenarios, loaded at start in order; a config file may write them out. */
  scenarios: Array<string | Record<string, unknown>>;
  /** Each setting given and where it came from (--print-config). */
  settings: { values: OptionValues; from: Record<string, OptionSource>; file?: string };
  /** `--print-config`: show the effective configuration and exit. */
  printConfig: boolean;
  /** OAuth client metadata documents: also fetch http URLs on loopback hosts (local testing). */
  metadataDocumentsOnLoopback?: boolean;
  /** Bounds on open connections and on how long a client may take to send a request. */
  connections: ConnectionOptions;
  /** Print each account's client report at shutdown (`--client-report`). */
  clientReport: boolean;
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
  --seeded-keys       Keep the demo keys derived from the seed even when listening beyond
                      loopback (where they are random by default: anyone with the seed
                      could derive them). They are printed at start either way
  --control-token <t> Require this token in X-Control-Token on /_sim (env SIM_CONTROL_TOKEN);
                      without one, /_sim answers loopback clients only
  --drain-timeout <s> On SIGTERM/SIGINT, let requests finish for at most s seconds (default 5);
                      a second signal stops at once
  --state-file <path> Keep the whole simulation in this file: restored at start (when it
                      exists), every change logged beside it (<path>.wal-<n>) (env SIM_STATE_FILE)
  --durability <mode> every-write (default): an answer reporting a change is sent once the
                      change is on disk; interval: the log reaches the disk every
                      --state-interval seconds (faster; a power loss may lose that much)
  --state-interval <s>
                      Seconds between flushes of the log with --durability interval (default 5)
  --accept-damaged-tail
                      Start even when the log's last record is whole but fails its check
                      (changed on disk): that record is dropped, and the start says so
  --journal-size <n>  Requests the journal under /_sim/journal keeps (default 1000; 0: none)
  --max-memory <MiB>  Memory budget: above it, calls that would store more answer 503
                      CAPACITY_EXCEEDED while reads go on (env SIM_MAX_MEMORY; without it,
                      at ${HEAP_SHARE * 100}% of Node's heap limit, so the process never dies of it)
${CONNECTION_USAGE}${QUOTA_USAGE}  --instance <n>      This simulator's number (0-255) among several behind one load balancer:
                      its keys and share links start with it in hex (svc_live_<hh>...), for
                      the proxy to route on (env SIM_INSTANCE)
  --scenario <file>   Load a scenario at start (YAML or JSON; or a shipped one: new-user,
                      empty-balance, build-in-every-state, full-library, rate-limited-key);
                      repeat for several. Its accounts' keys are printed
  --oauth-loopback-metadata
                      Also accept OAuth client ID metadata documents at http URLs on loopback
                      hosts (local testing of a client; env SIM_OAUTH_LOOPBACK_METADATA=1).
                      Off: only https documents on public addresses are fetched
  --client-report     At shutdown, print each account's client report: the service's rules
                      for clients its client broke (see GET /_sim/accounts/{id}/client-report)
  --client-rules <l>  Client rules to judge, read in order from "all": -<rule> turns one off,
                      <rule> on again, none turns all off (e.g. -poll-too-fast,-retry-after-402)
  --no-control        Do not serve the /_sim control API
  --no-rate-limits    Lift the spec's rate limits (for load tests); headers stay
  --log-format <f>    Request log as text (default) or json, one object a line (env SIM_LOG_FORMAT)
  --quiet             Do not log requests
  --log-dashboard     Log the dashboard's own reads too (left out: it polls several times a second)
  --config <file>     Read options from a YAML or JSON file, each under its flag's name
                      (journal-size: 50; serve-config.schema.json in the package; env SIM_CONFIG).
                      Every option is also an environment variable, SIM_<FLAG> (SIM_JOURNAL_SIZE,
                      SIM_QUIET=1; PORT, HOST, SIM_FROZEN_AT): flags over environment over file
  --print-config      Print the effective configuration (secrets hidden) and exit
  -h, --help          Show this help
  -v, --version       Show the version
`;

/** Limits so high no load test reaches them, while the headers keep their meaning. */
export const UNLIMITED = { perKey: { default: 1e9, 'build-create': 1e9, generation: 1e9 }, perUser: 1e9 };

/** `--frozen` alone (last, or before another option) means "frozen now", as --help says. */
function withFrozenDefault(argv: string[]): string[] {
  return argv.flatMap((arg, i) => (arg === '--frozen' && (argv[i + 1] === undefined || argv[i + 1]!.startsWith('-')) ? [arg, 'now'] : [arg]));
}

/** Every option of `content-sim serve`, as node:util's parseArgs reads them (and "did you mean" suggests them). */
const SERVE_OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string' },
  seed: { type: 'string' },
  speed: { type: 'string' },
  frozen: { type: 'string' },
  'public-url': { type: 'string' },
  'deterministic-secrets': { type: 'boolean' },
  'seeded-keys': { type: 'boolean' },
  'control-token': { type: 'string' },
  'drain-timeout': { type: 'string' },
  'state-file': { type: 'string' },
  'state-interval': { type: 'string' },
  durability: { type: 'string' },
  'accept-damaged-tail': { type: 'boolean' },
  'journal-size': { type: 'string' },
  instance: { type: 'string' },
  'max-memory': { type: 'string' },
  'log-format': { type: 'string' },
  scenario: { type: 'string', multiple: true },
  'client-report': { type: 'boolean' },
  'client-rules': { type: 'string' },
  'no-control': { type: 'boolean' },
  'oauth-loopback-metadata': { type: 'boolean' },
  'no-rate-limits': { type: 'boolean' },
  quiet: { type: 'boolean' },
  'log-dashboard': { type: 'boolean' },
  config: { type: 'string' },
  'print-config': { type: 'boolean' },
  ...CONNECTION_ARGS,
  ...QUOTA_ARGS,
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const satisfies NonNullable<ParseArgsConfig['options']>;

export { SERVE_OPTIONS };

/** parseArgs, with its errors turned into one line that names the problem and the fix. */
export function parseCommandLine(argv: string[]) {
  try {
    return parseArgs({ args: withFrozenDefault(argv), allowPositionals: true, options: SERVE_OPTIONS });
  } catch (error) {
    throw explainParseError(error, SERVE_OPTIONS);
  }
}

/**
 * Reads the command line, the environment and a config file's settings (already read:
 * config-file.ts) into serve options, flags over environment over file; throws UsageError on
 * bad input.
 */
export function parseServeOptions(argv: string[], env: NodeJS.ProcessEnv, file: { settings: unknown; name: string } = { settings: {}, name: '' }): ServeOptions | 'help' | 'version' {
  const { values: flags, positionals } = parseCommandLine(argv);
  if (flags.help) return 'help';
  if (flags.version) return 'version';
  const settings = { ...layered(flags as OptionValues, fromEnvironment(env, SERVE_OPTIONS), fromFile(file.settings, file.name, SERVE_OPTIONS)), ...(file.name ? { file: file.name } : {}) };
  // From here on every option is read from the layered values alone: its flag, its variable or the file.
  const values = settings.values as typeof flags & { scenario?: Array<string | Record<string, unknown>> };
  if (positionals.length > 1 || (positionals[0] !== undefined && positionals[0] !== 'serve')) {
    throw new UsageError(`unknown command: ${positionals.join(' ')} (the one command is serve, the default: content-sim --help lists every option)`);
  }
  const port = Number(values.port ?? DEFAULT_PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be 0 to 65535, not ${values.port}`);
  const speedText = values.speed;
  try {
    parseSpeed(speedText);
  } catch (e) {
    throw new UsageError(`--${(e as Error).message}`);
  }
  const frozenText = values.frozen;
  let frozenAt: number | undefined;
  if (frozenText !== undefined) {
    frozenAt = frozenText === '' || frozenText === 'now' ? Date.now() : Date.parse(frozenText);
    if (!Number.isFinite(frozenAt)) throw new UsageError(`--frozen takes an ISO 8601 time, not ${frozenText}`);
  }
  const drainSeconds = Number(values['drain-timeout'] ?? 5);
  if (!Number.isFinite(drainSeconds) || drainSeconds < 0 || drainSeconds > 600) throw new UsageError(`--drain-timeout must be 0 to 600 seconds, not ${values['drain-timeout']}`);
  const controlToken = values['control-token'];
  if (controlToken !== undefined && controlToken.length < 16) throw new UsageError('--control-token must be at least 16 characters');
  const publicUrl = values['public-url'];
  if (publicUrl !== undefined && !/^https?:\/\/[^/?#]+\/?$/.test(publicUrl)) {
    throw new UsageError(`--public-url takes an origin such as https://sim.example.com, not ${publicUrl}`);
  }
  const statePath = values['state-file'];
  const stateSeconds = Number(values['state-interval'] ?? 5);
  if (!Number.isFinite(stateSeconds) || stateSeconds < 0.01 || stateSeconds > 3600) throw new UsageError(`--state-interval must be 0.01 to 3600 seconds, not ${values['state-interval']}`);
  if (statePath === '') throw new UsageError('--state-file needs a path');
  // --durability: how soon a change reaches the disk (see docs/operations/persistence.md).
  const durability = values.durability ?? 'every-write';
  if (durability !== 'every-write' && durability !== 'interval') throw new UsageError(`--durability must be every-write or interval, not ${durability}`);
  if (values.durability !== undefined && !statePath) throw new UsageError('--durability needs --state-file');
  if (values['accept-damaged-tail'] && !statePath) throw new UsageError('--accept-damaged-tail needs --state-file');
  const journalSize = Number(values['journal-size'] ?? 1000);
  if (!Number.isInteger(journalSize) || journalSize < 0 || journalSize > 1_000_000) throw new UsageError(`--journal-size must be 0 to 1000000, not ${values['journal-size']}`);
  const instanceText = values.instance;
  const instance = instanceText === undefined ? undefined : Number(instanceText);
  if (instance !== undefined && (instanceText === '' || !Number.isInteger(instance) || instance < 0 || instance > 255)) {
    throw new UsageError(`--instance must be 0 to 255, not ${instanceText}`);
  }
  const maxMemoryText = values['max-memory'];
  const maxMemoryMiB = maxMemoryText === undefined ? undefined : Number(maxMemoryText);
  if (maxMemoryMiB !== undefined && (maxMemoryText === '' || !Number.isInteger(maxMemoryMiB) || maxMemoryMiB < 32 || maxMemoryMiB > 1_048_576)) {
    throw new UsageError(`--max-memory takes MiB from 32 to 1048576, not ${maxMemoryText}`);
  }
  const logFormat = values['log-format'] ?? 'text';
  if (logFormat !== 'text' && logFormat !== 'json') throw new UsageError(`--log-format must be text or json, not ${logFormat}`);
  const host = values.host ?? DEFAULT_HOST;
  const seededKeys = values['seeded-keys'] || values['deterministic-secrets'] || isLoopback(host);
  const connections = parseConnectionOptions(values, (message) => new UsageError(message));
  const quotas = parseQuotaOptions(values, (message) => new UsageError(message));
  let clientRulesOff: ReturnType<typeof rulesOffFrom> = [];
  try {
    clientRulesOff = values['client-rules'] === undefined ? [] : rulesOffFrom(values['client-rules']);
  } catch (e) {
    throw new UsageError(`--client-rules: ${(e as Error).message}`);
  }
  return {
    connections,
    drainMs: Math.round(drainSeconds * 1000),
    ...(statePath ? { stateFile: { path: statePath, intervalMs: Math.round(stateSeconds * 1000), durability, ...(values['accept-damaged-tail'] ? { acceptDamagedTail: true } : {}) } } : {}),
    seedGiven: values.seed !== undefined,
    ...(maxMemoryMiB !== undefined ? { maxMemoryMiB } : {}),
    // OAuth client ID metadata documents over http on loopback: for testing a client locally.
    ...(values['oauth-loopback-metadata'] ? { metadataDocumentsOnLoopback: true } : {}),
    port,
    host,
    quiet: values.quiet ?? false,
    logDashboard: values['log-dashboard'] ?? false,
    logFormat,
    scenarios: values.scenario ?? [],
    clientReport: values['client-report'] ?? false,
    settings,
    printConfig: flags['print-config'] ?? false,
    simulator: {
      seed: values.seed ?? DEFAULT_SEED,
      speed: speedText as SimulatorOptions['speed'],
      frozenAt,
      ...(publicUrl ? { publicUrl } : {}),
      ...(values['deterministic-secrets'] ? { deterministicSecrets: true } : {}),
      ...(seededKeys ? {} : { randomDemoKeys: true }),
      ...(controlToken ? { controlToken } : {}),
      control: !values['no-control'],
      journalSize,
      ...(instance !== undefined ? { instance } : {}),
      ...(values['no-rate-limits'] ? { rateLimits: UNLIMITED } : {}),
      ...(Object.keys(quotas).length ? { quotas } : {}),
      ...(clientRulesOff.length ? { clientRulesOff } : {}),
    },
  };
}
