import type { Principal } from '../auth/principal.js';
import type { HandledResponse, HandleOptions } from '../engine/handled.js';
import type { EngineRequest } from '../engine/types.js';
import { ApiError, type FieldProblem } from '../errors/api-error.js';
import type { RateLimiter } from '../limits/rate-limiter.js';
import { Rng } from '../random/rng.js';

/** The engine, called in-process: what a scenario is loaded through. */
export type InProcessHandle = (request: EngineRequest, options?: HandleOptions) => HandledResponse;

/** A scenario that cannot be loaded: every problem at its path in the scenario. */
export class ScenarioError extends ApiError {
  /** Which of several scenarios loaded together it is (the CLI's `--scenario`s, in order). */
  scenarioIndex?: number;

  constructor(readonly problems: FieldProblem[]) {
    const first = problems[0];
    super(400, 'VALIDATION_ERROR', first ? `${first.path || 'scenario'}: ${first.message}` : 'the scenario is not valid', { fields: problems });
    this.name = 'ScenarioError';
  }
}

/** The id a refused call answers while problems are being collected: calls that use it are not sent. */
const UNMADE = 'unmade-by-a-refused-call';
const unmade = { id: UNMADE, buildId: UNMADE };

/** How a request body's field is named in the scenario (`body.targetId` is the build's `target`). */
export type FieldNames = Record<string, string>;

const encoder = new TextEncoder();

/**
 * One account's calls of the service API, as the account itself (both scopes), in-process:
 * counted in no rate limit, kept out of the journal, hit by no fault, their correlation ids
 * from the account's own stream so that the same scenario gives the same ids however loaded.
 * A refusal becomes a ScenarioError at the scenario path the request was made for.
 */
export class AccountCalls {
  private readonly correlation: Rng;

  constructor(
    private readonly handle: InProcessHandle,
    readonly principal: Principal,
    seed: string,
    /** Calls for a rehearsal on a copy of the account, which the store does not hold. */
    private readonly rehearsal: boolean,
    /** The rate limiter a key's window is spent in, and the simulator's time. */
    private readonly limiter: RateLimiter,
    private readonly simulatorNow: () => number,
    /**
     * Where a refusal's problems go instead of being thrown: the run goes on to find the
     * others, and a call that needs what a refused one would have made is not sent.
     */
    private readonly collect?: FieldProblem[],
  ) {
    this.correlation = new Rng(seed, 'scenario-correlation-ids', principal.account.id);
  }

  /** A call that must succeed; `path` is where in the scenario it comes from. */
  call(method: string, url: string, path: string, body?: unknown, names: FieldNames = {}): Record<string, unknown> {
    if (this.collect && (url.includes(UNMADE) || JSON.stringify(body ?? null).includes(UNMADE))) return unmade;
    const response = this.send(method, url, body === undefined ? {} : { 'content-type': 'application/json' }, body);
    const text = typeof response.body === 'string' ? response.body : new TextDecoder().decode(response.body);
    const json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    if (response.status < 400) return json;
    return this.refused(refusalProblems(json, path, names));
  }

  private refused(problems: FieldProblem[]): Record<string, unknown> {
    if (!this.collect) throw new ScenarioError(problems);
    this.collect.push(...problems);
    return unmade;
  }

  /** Spends the window of the account's key `keyId` (see `RateLimiter.spend`), on the account's own time. */
  spendWindow(keyId: string): void {
    const { account } = this.principal;
    this.limiter.spend(keyId, account.id, account.now(this.simulatorNow()), account.clock !== null);
  }

  /** A control call, in-process and trusted (the caller of the load already is). */
  control(method: string, url: string, path: string, body: unknown): Record<string, unknown> {
    const response = this.handle(
      { method, url, headers: { 'content-type': 'application/json' }, body: encoder.encode(JSON.stringify(body)) },
      { unjournaled: true, controlTrusted: true, correlationId: this.correlation.hex(24, 'corr_') },
    );
    const json = JSON.parse(response.body as string) as Record<string, unknown>;
    if (response.status < 400) return json;
    return this.refused(refusalProblems(json, path, {}));
  }

  private send(method: string, url: string, headers: Record<string, string>, body: unknown): HandledResponse {
    return this.handle(
      { method, url, headers, ...(body === undefined ? {} : { body: encoder.encode(JSON.stringify(body)) }) },
      { principal: this.principal, rehearsal: this.rehearsal, uncounted: true, unjournaled: true, unfaulted: true, correlationId: this.correlation.hex(24, 'corr_') },
    );
  }
}

/** The API's refusal, told at the scenario's path: a field's problem at that field, anything else at the entry. */
function refusalProblems(json: Record<string, unknown>, path: string, names: FieldNames): FieldProblem[] {
  const details = (json.details ?? {}) as { fields?: FieldProblem[] };
  if (json.code === 'VALIDATION_ERROR' && Array.isArray(details.fields) && details.fields.length > 0) {
    return details.fields.map((f) => {
      const field = f.path.replace(/^body\.?/, '');
      const first = field.split(/[.[]/)[0] ?? '';
      const renamed = Object.hasOwn(names, first) ? `${names[first]}${field.slice(first.length)}` : field;
      return { path: renamed ? `${path}.${renamed}` : path, message: f.message };
    });
  }
  return [{ path, message: `the API refuses this (${String(json.code)}): ${String(json.error)}` }];
}
