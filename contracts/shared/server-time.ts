import type { ObservedResponse } from './contract-validator.js';
import { ContractFailure } from './outcomes.js';

/** The rule every control call is held to; a broken one is a failed step, never a crash. */
export const CONTROL_RULE = 'Simulator control API: GET /_sim, POST /_sim/accounts and the clock calls answer as simulator-control.yaml states';

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

interface ClockState {
  nowMs: number;
  frozen: boolean;
}

/** docs/reference/cli.md, --speed: the simulator's pipeline speeds as factors of realistic time. */
const SPEED_FACTORS: Readonly<Record<string, number>> = { realistic: 1, fast: 60, instant: Number.POSITIVE_INFINITY };

/** The contract rules a response breaks, as messages (none when it keeps them). */
export type ResponseCheck = (observed: ObservedResponse) => string[];

/**
 * The simulator's control API (simulator-control.yaml), when the target has one: fresh
 * isolated accounts, and a clock the suite moves instead of waiting. A response that breaks
 * the control contract is kept until `takeViolations()`, for the step that made it to report
 * it; a call that cannot do its job throws a ContractFailure naming CONTROL_RULE.
 */
export class SimulatorControl {
  private pending: string[] = [];
  /** Where the clock the suite moves is: the simulator's, or its account's own once it has one. */
  private clockPath = '/_sim/clock';
  /** How far the moves under way (asked for, not yet answered) will take the clock. */
  private movingMs = 0;
  /** The moves under way, one after another. */
  private moving: Promise<void> = Promise.resolve();
  /** The simulator's clock as `GET /_sim` read it: what answers tied to no account go by. */
  private simulatorClock: { state: ClockState; local: number } = { state: { nowMs: 0, frozen: true }, local: 0 };

  private constructor(
    private readonly baseUrl: string,
    private readonly fetchImpl: FetchLike,
    private readonly validate: ResponseCheck,
    readonly pipelineSpeed: string,
    private clockState: ClockState,
    private readonly anchoredAt: { local: number },
    /** The simulator can give an account a clock of its own (`accountClocks` in `GET /_sim`). */
    readonly accountClocks: boolean,
  ) {}

  /** Asks `GET /_sim`; anything but a simulator's answer means there is none. */
  static async discover(baseUrl: string, fetchImpl: FetchLike, validate: ResponseCheck): Promise<SimulatorControl | null> {
    let response: Response;
    try {
      response = await fetchImpl(`${baseUrl}/_sim`, { headers: { accept: 'application/json', ...controlTokenHeader() } });
    } catch {
      return null;
    }
    const text = await response.text();
    if (response.status !== 200) return null;
    let info: any;
    try {
      info = JSON.parse(text);
    } catch {
      return null;
    }
    if (typeof info?.pipelineSpeed !== 'string' || typeof info?.clock?.nowMs !== 'number') return null;
    const control = new SimulatorControl(baseUrl, fetchImpl, validate, info.pipelineSpeed, info.clock, { local: Date.now() }, info.accountClocks === true);
    control.simulatorClock = { state: info.clock, local: Date.now() };
    control.keep({ method: 'GET', url: '/_sim', status: response.status, headers: headersOf(response), body: text });
    return control;
  }

  /** The control responses that broke their contract since the last call, each naming CONTROL_RULE; cleared. */
  takeViolations(): string[] {
    const taken = this.pending;
    this.pending = [];
    return taken;
  }

  /** How many times faster than realistic the pipeline runs (Infinity when instant). */
  get speedFactor(): number {
    return SPEED_FACTORS[this.pipelineSpeed] ?? Number(this.pipelineSpeed);
  }

  get frozen(): boolean {
    return this.clockState.frozen;
  }

  /** Whether the clock the suite moves is its account's own, so that nobody else's time moves. */
  get ownClock(): boolean {
    return this.clockPath !== '/_sim/clock';
  }

  /** The suite's time now (its account's clock, or the simulator's), from the last clock reading. */
  now(): number {
    return this.clockState.frozen ? this.clockState.nowMs : this.clockState.nowMs + (Date.now() - this.anchoredAt.local);
  }

  /**
   * The simulator's time now, when the suite moves its account's own clock: answers that belong
   * to no account (a key that authenticates nobody, a share link's view) go by it. The suite
   * never moves it; another client might, which this reading cannot see.
   */
  simulatorNow(): number | undefined {
    if (!this.ownClock) return undefined;
    const { state, local } = this.simulatorClock;
    return state.frozen ? state.nowMs : state.nowMs + (Date.now() - local);
  }

  /** The suite's time once the moves under way are done: an answer that comes meanwhile was made between now() and this. */
  scheduled(): number {
    return this.now() + this.movingMs;
  }

  /**
   * Moves the clock by `ms`, after the moves already under way: concurrent moves sent at once
   * could be answered in any order, and the last answer read would not be the latest time.
   */
  async advance(ms: number): Promise<void> {
    if (ms <= 0) return;
    const step = Math.ceil(ms);
    this.movingMs += step;
    const move = this.moving.then(() => this.clock(`${this.clockPath}/advance`, { ms: step }));
    this.moving = move.catch(() => undefined);
    try {
      await move;
    } finally {
      this.movingMs -= step;
    }
  }

  /** Lets the clock reach `instant`: waits that end at the same reset share one move. */
  async reach(instant: number): Promise<void> {
    if (instant > this.scheduled()) return this.advance(instant - this.scheduled());
    await this.moving;
  }

  async freeze(): Promise<void> {
    await this.clock(`${this.clockPath}/freeze`);
  }

  async resume(): Promise<void> {
    await this.clock(`${this.clockPath}/resume`);
  }

  /**
   * A fresh account. `drivesClock`: where the simulator offers it, the account gets a clock of
   * its own (starting where the simulator's stands), and that is the clock the suite moves from
   * then on, so parallel runs and other clients on the same simulator keep their time.
   */
  async createAccount(name: string, balance: number, drivesClock = false): Promise<Record<'readWrite' | 'readOnly' | 'writeOnly' | 'revoked', string>> {
    const own = drivesClock && this.accountClocks;
    const body = await this.post('/_sim/accounts', own ? { name, balance, clock: { own: true } } : { name, balance }, 201);
    if (typeof body?.keys?.readWrite !== 'string') throw new ContractFailure(`${CONTROL_RULE}\n    POST /_sim/accounts: no keys.readWrite in ${JSON.stringify(body).slice(0, 200)}`);
    if (own) {
      if (typeof body?.clock?.nowMs !== 'number' || typeof body?.accountId !== 'string') {
        throw new ContractFailure(`${CONTROL_RULE}\n    POST /_sim/accounts: no clock of its own in ${JSON.stringify({ ...body, keys: undefined }).slice(0, 200)}`);
      }
      this.clockPath = `/_sim/accounts/${encodeURIComponent(body.accountId)}/clock`;
      this.clockState = body.clock;
      this.anchoredAt.local = Date.now();
    }
    return body.keys;
  }

  private async clock(path: string, body?: unknown): Promise<void> {
    this.clockState = await this.post(path, body, 200);
    this.anchoredAt.local = Date.now();
  }

  private async post(path: string, body: unknown, expected: number): Promise<any> {
    // Control writes are JSON only (a web page cannot send that cross-origin): {} when there is nothing to say.
    const init: RequestInit = { method: 'POST', body: JSON.stringify(body ?? {}), headers: { 'content-type': 'application/json', ...controlTokenHeader() } };
    const broken = (detail: string) => new ContractFailure(`${CONTROL_RULE}\n    POST ${path}: ${detail}`);
    let response: Response;
    let text: string;
    try {
      response = await this.fetchImpl(`${this.baseUrl}${path}`, init);
      text = await response.text();
    } catch (e) {
      throw broken(`no answer (${String((e as Error).cause ?? (e as Error).message)})`);
    }
    this.keep({ method: 'POST', url: path, status: response.status, headers: headersOf(response), body: text });
    if (response.status !== expected) throw broken(`expected ${expected}, got ${response.status}: ${text.slice(0, 300)}`);
    try {
      return JSON.parse(text);
    } catch {
      throw broken(`the body is not JSON: ${JSON.stringify(text.slice(0, 120))}`);
    }
  }

  private keep(observed: ObservedResponse): void {
    this.pending.push(...this.validate(observed));
  }
}

/**
 * The service's notion of now: the simulator's virtual clock when the suite controls it,
 * else this machine's clock corrected by the skew that `Date` headers show.
 */
export class ServerTime {
  private skewMs = 0;

  constructor(
    private readonly control: SimulatorControl | null,
    private readonly deadline: number,
  ) {}

  get controllable(): boolean {
    return this.control !== null;
  }

  /** How far a reading of now may be off. */
  get toleranceMs(): number {
    return this.control ? 1000 : 3000;
  }

  now(): number {
    return this.control ? this.control.now() : Date.now() + this.skewMs;
  }

  /**
   * The reading of now closest to `instant`: the run's account's time, or, when that is a clock
   * of its own, the simulator's, which answers tied to no account (a 401) go by.
   */
  nowNear(instant: number, sentAt?: number): number {
    // An answer may have been made at any time from its request's sending to the end of the clock
    // moves under way when it came: of those, the nearest the instant judged.
    const now = this.now();
    const earliest = Math.min(sentAt ?? now, now);
    const latest = this.control ? this.control.scheduled() : now;
    const nearest = Math.min(Math.max(instant, earliest), latest);
    const simulator = this.control?.simulatorNow();
    return simulator !== undefined && Math.abs(simulator - instant) < Math.abs(nearest - instant) ? simulator : nearest;
  }

  observe(headers: Record<string, string>): void {
    if (this.control || !headers.date) return;
    const date = Date.parse(headers.date);
    // A Date header has whole seconds: only a skew above that says the clocks differ.
    if (Number.isFinite(date) && Math.abs(date - Date.now()) > 1500) this.skewMs = date - Date.now();
  }

  /** Lets `ms` of service time pass: moves the simulator's clock, or waits (never past the deadline). */
  async sleep(ms: number): Promise<void> {
    if (ms <= 0) return;
    if (this.control) return this.control.advance(ms);
    if (Date.now() + ms > this.deadline) throw new Error(`the time budget ends before a wait of ${Math.ceil(ms / 1000)} s would`);
    await new Promise((resolve) => setTimeout(resolve, ms));
  }

  /** Waits until a Unix time in seconds (a rate-limit window's reset) has passed. */
  async until(unixSeconds: number): Promise<void> {
    if (this.control) return this.control.reach(unixSeconds * 1000);
    await this.sleep(unixSeconds * 1000 - this.now() + 500);
  }
}

export function headersOf(response: Response): Record<string, string> {
  const out: Record<string, string> = {};
  response.headers.forEach((value, name) => (out[name.toLowerCase()] = value));
  return out;
}

/** The simulator's control token, when it was started with one (CONTRACT_CONTROL_TOKEN). */
function controlTokenHeader(): Record<string, string> {
  const token = process.env.CONTRACT_CONTROL_TOKEN;
  return token ? { 'x-control-token': token } : {};
}
