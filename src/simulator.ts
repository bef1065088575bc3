import { DEFAULT_QUOTAS, type Quotas } from './limits/quotas.js';
import { Clock } from './clock/clock.js';
import { SPEED_PRESETS, type SpeedPreset } from './builds/pipeline.js';
import { generateContent } from './content/generate.js';
import { resolveLibraryItems } from './library/library-service.js';
import { controlDocument, serviceDocument } from './contract/openapi.generated.js';
import { readOperations } from './contract/operations.js';
import { Engine, type HandledResponse, type HandleOptions } from './engine/engine.js';
import { engineHooks } from './app/engine-hooks.js';
import { RequestValidator } from './engine/request-validation.js';
import type { EngineRequest } from './engine/types.js';
import { AddressLimiter, FAILED_AUTH_LIMIT, SHARE_VIEW_LIMIT } from './limits/address-limiter.js';
import { KEY_LIMITS, RateLimiter, USER_LIMIT, type RateLimitClass } from './limits/rate-limiter.js';
import type { SimulatorState } from './state/simulator-state.js';
import { AuthorizationServer } from './oauth/authorization-server.js';
import { controlHandlers, publicHandlers, serviceHandlers } from './operations/index.js';
import { seedAccounts, type SeededKeys } from './seed/accounts.js';
import { Store } from './store/store.js';
import { Rng } from './random/rng.js';
import { ContentCache } from './builds/content-cache.js';
import { Interner } from './store/interner.js';
import { DEFAULT_JOURNAL_SIZE, Journal } from './observe/journal.js';
import { FaultRules } from './observe/faults.js';
import { restoreSnapshot, takeSnapshot, type SimulationSnapshot } from './state/snapshot.js';
import { VERSION } from './version.js';
import { instanceTag } from './scale/instance.js';
import { unlimitedCapacity } from './limits/capacity.js';
import { byKey as bodyValidators } from './contract/validators-body.generated.js';
import { byKey as paramValidators } from './contract/validators-params.generated.js';
import { loadInto, registerEngine } from './scenarios/registry.js';
import { ScenarioError } from './scenarios/calls.js';
import type { LoadedScenario } from './scenarios/types.js';
import { ClientReport, registerClientReport, type ClientReportJson } from './client-report/client-report.js';
import type { RuleId } from './client-report/rules.js';

export const DEFAULT_SEED = 'content-sim';

export interface SimulatorOptions {
  /** Same seed, same requests → byte-identical responses. Default `content-sim`. */
  seed?: string;
  /** `realistic` (3–8 min for a blog), `fast` (the default: seconds), `instant`, or a factor. */
  speed?: SpeedPreset | number;
  /** Start with the clock frozen at this instant (ms or ISO string); it then moves only when advanced. */
  frozenAt?: number | string;
  /** Real time source, for tests of the running clock. */
  realTime?: () => number;
  /** Serve the `/_sim` control API. Default true. */
  control?: boolean;
  cors?: boolean;
  /** Requests a minute: per key by route class, and per user. Defaults are the spec's (60/10/20 and 120). */
  rateLimits?: { perKey?: Partial<Record<RateLimitClass, number>>; perUser?: number };
  /** Told of unexpected faults (the client sees a bare 500). Default: console.error. */
  onFault?: (error: unknown, correlationId: string) => void;
  /** The address clients reach the simulator at, when behind a proxy: the OAuth issuer. Default: where it listens. */
  publicUrl?: string;
  /**
   * Draw the API keys made through the API or `/_sim/accounts`, rotated keys and share tokens
   * from the seed, for byte-identical replays. Unsafe: anyone who knows the seed can derive them.
   */
  deterministicSecrets?: boolean;
  /**
   * Draw the demo keys made at start at random too, instead of from the seed: the CLI does so
   * when it listens beyond loopback, where keys anyone can derive from the seed would let anyone in.
   */
  randomDemoKeys?: boolean;
  /** Requests the journal keeps (default 1000); 0 keeps none (load tests). */
  journalSize?: number;
  /** Bytes of generated content kept for builds read recently (default 32 MiB); content is regenerated when evicted. */
  contentCacheBytes?: number;
  /** Required in X-Control-Token on `/_sim`; without one, `/_sim` answers loopback (and in-process) clients only. */
  controlToken?: string;
  /**
   * This simulator's number (0–255) among several behind one load balancer: its keys and share
   * tokens start with it (two hex digits) so a proxy can route on them, and its ids and keys
   * come from its own streams of the seed. See `instanceOf`.
   */
  instance?: number;
  /** Scenarios loaded at start, in order, each into fresh accounts (see `loadScenario`). */
  scenarios?: unknown[];
  /** What one account may store (counts of each kind, and their estimated bytes); defaults in `DEFAULT_QUOTAS`. */
  quotas?: Partial<Quotas>;
  /** Client rules left unjudged for every account (see `clientReport`); `rulesOffFrom` reads the CLI's list. */
  clientRulesOff?: readonly RuleId[];
}

export interface Simulator {
  /** Options are for in-process adapters only (an MCP session's already-authenticated caller). */
  handle(request: EngineRequest, options?: HandleOptions): HandledResponse;
  readonly clock: Clock;
  readonly seed: string;
  readonly keys: SeededKeys;
  /** The internal state the engine and the handlers work on: for the adapters and tests that inspect it; change it through the methods here. */
  readonly internal: SimulatorState;
  /** Whether `/readyz` says ready: true until `stopAccepting` (the server is draining). */
  readonly ready: boolean;
  /** From now on `/readyz` answers 503, so load balancers send no new traffic here. */
  stopAccepting(): void;
  /** Ends every live journal feed (server-sent events), so a stopping server's connections can close. */
  endJournalFeeds(): void;
  /** The whole simulation as plain JSON: what `GET /_sim/snapshot` answers and `--state-file` writes. */
  snapshot(): SimulationSnapshot;
  /** Replaces the whole simulation with a snapshot's, or throws (a 400 ApiError naming the fault) and changes nothing. */
  restore(snapshot: unknown): void;
  /**
   * Loads a scenario (docs/reference/scenarios.md) into fresh accounts through the API's own
   * operations; answers their keys and ids by the scenario's names, or throws a 400 ApiError
   * whose `details.fields` name the scenario's paths at fault.
   */
  loadScenario(scenario: unknown): LoadedScenario;
  /** What the scenarios given in the options answered, in order. */
  readonly scenarios: LoadedScenario[];
  /**
   * How the account's client kept the service's rules for clients (polling, rate limits,
   * idempotency, 402, 401/403, MCP tasks): what `GET /_sim/accounts/{accountId}/client-report`
   * answers, or undefined when there is no such account.
   */
  clientReport(accountId: string): ClientReportJson | undefined;
}

export function parseSpeed(speed: SpeedPreset | number | string | undefined): { factor: number; label: string } {
  if (speed === undefined) return { factor: SPEED_PRESETS.fast, label: 'fast' };
  if (typeof speed === 'string' && speed in SPEED_PRESETS) return { factor: SPEED_PRESETS[speed as SpeedPreset], label: speed };
  const factor = Number(speed);
  if (!Number.isFinite(factor) || factor <= 0) {
    throw new RangeError(`speed must be realistic, fast, instant or a positive factor, not ${String(speed)}`);
  }
  return { factor, label: String(factor) };
}

/** Builds a simulator: its clock, an account store seeded with the default keys, and the engine. */
export function createSimulator(options: SimulatorOptions = {}): Simulator {
  const tag = options.instance === undefined ? '' : instanceTag(options.instance);
  // Each instance draws from its own streams: ids and keys never collide between instances. A
  // seed that already names the instance (read back from its own state file) is kept as it is.
  const base = options.seed ?? DEFAULT_SEED;
  const seed = tag && !base.endsWith(`#instance-${tag}`) ? `${base}#instance-${tag}` : base;
  const speed = parseSpeed(options.speed);
  const frozenAt = typeof options.frozenAt === 'string' ? Date.parse(options.frozenAt) : options.frozenAt;
  if (frozenAt !== undefined && !Number.isFinite(frozenAt)) throw new RangeError(`frozenAt is not a valid time: ${String(options.frozenAt)}`);
  const clock = new Clock({ frozenAt, realTime: options.realTime });
  const store = new Store(seed, options.deterministicSecrets, options.randomDemoKeys, tag);
  const serviceOperations = readOperations(serviceDocument, 'service');
  const guessing = { failedAuth: new AddressLimiter(FAILED_AUTH_LIMIT), shareView: new AddressLimiter(SHARE_VIEW_LIMIT) };
  const sim: SimulatorState = {
    seed,
    version: VERSION,
    speedLabel: speed.label,
    clock,
    store,
    limiter: new RateLimiter({ ...KEY_LIMITS, ...options.rateLimits?.perKey }, options.rateLimits?.perUser ?? USER_LIMIT),
    guessing,
    builds: { seed, speed: speed.factor, generateContent, resolveLibraryItems, contentCache: new ContentCache(options.contentCacheBytes), objectives: new Interner(256) },
    oauth: new AuthorizationServer(store, { publicUrl: options.publicUrl, now: clock.now(), failedAuth: guessing.failedAuth, realNow: () => clock.realNow() }),
    correlationIds: new Rng(seed, 'correlation-ids'),
    ready: true,
    capacity: unlimitedCapacity(),
    initialState: '',
    journal: new Journal(options.journalSize ?? DEFAULT_JOURNAL_SIZE),
    faults: new FaultRules(seed, serviceOperations),
    quotas: { ...DEFAULT_QUOTAS, ...options.quotas },
  };
  const clientReport = new ClientReport({
    account: (id) => sim.store.accounts.get(id),
    revokedKeyOwner: (presented) => {
      const key = sim.store.findKey(presented);
      return key && key.revokedAt !== null ? { accountId: key.accountId, credentialId: key.id } : undefined;
    },
    // The clock of the engine's realAt, so that what the engine times and what the report reads agree.
    realNow: () => performance.now(),
    rulesOff: options.clientRulesOff,
  });
  registerClientReport(sim, clientReport);
  const keys = seedAccounts(store, clock.now());
  sim.initialState = JSON.stringify(takeSnapshot(sim));
  const engine = new Engine({
    sim,
    hooks: engineHooks(sim),
    serviceOperations,
    controlOperations: readOperations(controlDocument, 'control'),
    validator: new RequestValidator({ service: serviceDocument, control: controlDocument }, { body: bodyValidators, params: paramValidators }),
    serviceHandlers,
    publicHandlers,
    controlHandlers,
    control: options.control,
    cors: options.cors,
    controlToken: options.controlToken,
    onFault: options.onFault ?? ((error, correlationId) => console.error(`[${correlationId}] unexpected fault:`, error)),
  });
  registerEngine(sim, (request, handleOptions) => engine.handle(request, handleOptions));
  const scenarios = (options.scenarios ?? []).map((scenario, i) => {
    try {
      return loadInto(sim, scenario);
    } catch (error) {
      if (error instanceof ScenarioError) error.scenarioIndex = i;
      throw error;
    }
  });
  // The scenarios given at start are part of it: a reset goes back to them.
  if (scenarios.length > 0) sim.initialState = JSON.stringify(takeSnapshot(sim));
  /** The one durability wait, for every adapter and tool call: the log's keeper says whether this answer waits. */
  const withDurability = (response: HandledResponse): HandledResponse => {
    const durable = store.changes.settle();
    if (durable) {
      // Whoever sends the answer hears of a failure; an answer nobody sends must not end the process with it.
      durable.catch(() => undefined);
      response.durable = durable;
    }
    return response;
  };
  return {
    handle: (request, handleOptions) => {
      const response = engine.handle(request, handleOptions);
      // An answer that comes later waits, once it has come, for what its work changed.
      if (response.later) response.later = response.later.then(withDurability);
      return withDurability(response);
    },
    loadScenario: (scenario) => loadInto(sim, scenario),
    scenarios,
    clientReport: (accountId) => clientReport.report(accountId),
    clock,
    seed,
    keys,
    internal: sim,
    get ready() {
      return sim.ready;
    },
    stopAccepting: () => void (sim.ready = false),
    endJournalFeeds: () => sim.journal.endFeeds(),
    // A copy: the caller may keep or change it without touching the live records.
    snapshot: () => JSON.parse(JSON.stringify(takeSnapshot(sim))) as SimulationSnapshot,
    restore: (snapshot) => restoreSnapshot(sim, snapshot),
  };
}
