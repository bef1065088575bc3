import { DEFAULTS, type Role, type SuiteConfig } from './config.js';
import { ContractValidator } from '../shared/contract-validator.js';
import { Fixtures } from './fixtures.js';
import { ServiceClient } from './http-client.js';
import { CONTRACT_FILES, readOperations, type OperationInfo } from '../shared/openapi-model.js';
import { ContractFailure, SkipSignal } from '../shared/outcomes.js';
import { ResponseRules } from '../shared/response-rules.js';
import type { SessionView } from './session-view.js';
import { CONTROL_RULE, ServerTime, SimulatorControl, type FetchLike, type ResponseCheck } from '../shared/server-time.js';

/** Tokens of the fresh simulator account: enough for every strict check, too few for the largest build (402). */
const SIMULATOR_BALANCE = 60;

/** Everything a check works with: the client, the clock, the budgets, the shared fixtures. */
export class Session implements SessionView {
  tokensSpent = 0;
  /** What broke while the run set itself up on the simulator (its accounts, its clock): then no check can run. */
  setupFailure: string | undefined;
  readonly fixtures: Fixtures;
  readonly startedAt = Date.now();
  /** The seed of the generated inputs when --model-seed gives none: drawn once for the run. */
  readonly drawnSeed = (Date.now() ^ Math.floor(Math.random() * 0x7fffffff)) | 0;
  private slugs = 0;

  constructor(
    readonly config: SuiteConfig,
    readonly operations: OperationInfo[],
    readonly validator: ContractValidator,
    readonly client: ServiceClient,
    readonly time: ServerTime,
    readonly control: SimulatorControl | null,
    readonly keys: Partial<Record<Role, string>>,
    readonly budgets: { requests: number; tokens: number; deadline: number },
    private readonly frozeClock: boolean,
  ) {
    this.fixtures = new Fixtures(this);
  }

  get level() {
    return this.config.level;
  }

  get strict(): boolean {
    return this.config.level === 'strict';
  }

  /**
   * The polling step that sees every status: half the spec's 30 s interval in the pipeline's
   * time (stages last longer), so on the simulator the clock moves 15 s / speed per poll.
   */
  get fineStepMs(): number {
    if (!this.control) return this.config.pollIntervalMs;
    const factor = this.control.speedFactor;
    return Number.isFinite(factor) && factor > 0 ? Math.max(1, Math.floor(15_000 / factor)) : 1000;
  }

  /** Whether polling can see every status (a clock the suite moves, and a pipeline of known speed). */
  get seesEveryStatus(): boolean {
    return this.control !== null && Number.isFinite(this.control.speedFactor);
  }

  /** Reserves tokens for a check that spends them, or skips it. */
  spend(tokens: number, what: string): void {
    if (!this.config.spend) throw new SkipSignal('the checks that spend tokens are switched off (--no-spend)');
    if (this.tokensSpent + tokens > this.budgets.tokens) {
      throw new SkipSignal(`${what} needs ${tokens} token(s); the token budget (${this.budgets.tokens}) has ${this.budgets.tokens - this.tokensSpent} left`);
    }
    this.tokensSpent += tokens;
  }

  skipBecause(reason: string): never {
    throw new SkipSignal(reason);
  }

  requireWait(): void {
    if (!this.config.wait) throw new SkipSignal('the checks that wait for a build are switched off (--no-wait)');
  }

  /** A slug and name for a target of this run, recognisable by the run's prefix. */
  newTargetName(label: string): { slug: string; name: string } {
    const slug = `${this.config.runId}-${label}-${++this.slugs}`.slice(0, 64).replace(/-+$/, '');
    return { slug, name: `Contract check ${this.config.runId} ${label}` };
  }

  uuid(): string {
    return crypto.randomUUID();
  }

  /** Ends the MCP sessions the run left open, then hands the simulator's clock back; a control call that fails here is a ContractFailure. */
  async finish(): Promise<void> {
    await this.client.endMcpSessions();
    if (this.frozeClock && !this.setupFailure) await this.control?.resume();
  }
}

/**
 * Opens a session against a base URL: reads openapi.yaml, looks for the simulator's control
 * API (then creates a fresh account with keys of every role unless keys were given, and
 * freezes its clock so that only the suite moves it), and sets the budgets. A simulator whose
 * control API fails here gives a session with `setupFailure` set instead of an exception;
 * only a configuration that cannot work (no key, no simulator) throws.
 */
export async function openSession(config: SuiteConfig, fetchImpl: FetchLike = fetch): Promise<Session> {
  // Proxies and balancers add headers of their own: only what the contract documents is judged.
  const validator = ContractValidator.shared(CONTRACT_FILES, { level: config.level, allowUndocumentedHeaders: true });
  const operations = readOperations();
  const controlCheck: ResponseCheck = (o) =>
    validator.validate(o).map((v) => `${CONTROL_RULE}\n    ${o.method} ${o.url} → ${o.status}: [${v.operation} ${v.status} ${v.rule}] ${v.message}`);
  const control = config.discoverSimulator ? await SimulatorControl.discover(config.baseUrl, fetchImpl, controlCheck) : null;
  const keys = { ...config.keys };
  let setupFailure: string | undefined;
  const step = async (action: () => Promise<void>) => {
    if (setupFailure) return;
    try {
      await action();
    } catch (e) {
      if (!(e instanceof ContractFailure)) throw e;
      setupFailure = e.message;
    }
  };
  if (control && !keys.readWrite) {
    await step(async () => {
      const main = await control.createAccount(`Contract checks ${config.runId}`, SIMULATOR_BALANCE, true);
      const empty = await control.createAccount(`Contract checks ${config.runId} (no tokens)`, 0);
      Object.assign(keys, main, { empty: empty.readWrite });
      if (!control.ownClock) process.stderr.write("contracts: this simulator has no clocks per account (an older version): the run moves the simulator's shared clock\n");
    });
  }
  if (!keys.readWrite && !setupFailure) {
    throw new Error('no read+write key: set CONTRACT_KEY_READ_WRITE (or --key-read-write); only the simulator can give the suite one');
  }
  const defaults = control ? DEFAULTS.simulator : DEFAULTS.realService;
  const budgets = {
    requests: config.requestBudget ?? defaults.requestBudget,
    tokens: config.tokenBudget ?? defaults.tokenBudget,
    deadline: Date.now() + (config.timeBudgetMs ?? defaults.timeBudgetMs),
  };
  const time = new ServerTime(control, budgets.deadline);
  const froze = control !== null && !control.frozen;
  if (froze) await step(() => control.freeze());
  const rules = new ResponseRules(validator, time, config.level);
  const client = new ServiceClient({ baseUrl: config.baseUrl, fetch: fetchImpl, keys, operations, rules, time, requestBudget: budgets.requests });
  const session = new Session(config, operations, validator, client, time, control, keys, budgets, froze);
  session.setupFailure = setupFailure;
  return session;
}
