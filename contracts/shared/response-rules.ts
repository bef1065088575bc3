import type { ContractLevel, ContractValidator } from './contract-validator.js';
import { CLASS_LIMITS, USER_LIMIT, type OperationInfo } from './openapi-model.js';

/** The rules every response is held to, whatever check made the call. Each failure names its rule. */
export const RULES = {
  contract: 'Contract: every response matches openapi.yaml (status documented for the operation, headers, content type, body schema)',
  noServerError: 'Errors: no request of a client provokes a 5xx server fault',
  answers: 'Transport: every request gets a whole HTTP answer (no dropped connection, no cut body)',
  jsonBody: 'Contract: a body sent as JSON (Content-Type application/json) is valid JSON',
  errorShape: 'Errors: every error body has the shape {error, code, details}',
  rateHeaders: 'Limits: X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset are present on every response',
  remainingBounds: 'Limits: X-RateLimit-Remaining lies between 0 and X-RateLimit-Limit',
  resetFuture: 'Limits: X-RateLimit-Reset is a Unix time in the future',
  resetWindow: 'Limits: X-RateLimit-Reset is a Unix timestamp in seconds, at most one 60-second window away (every limit is per minute)',
  limitClass: 'Limits: X-RateLimit-Limit is the limit of the route class (60 a minute; 10 for POST /builds; 20 for suggestions and images) or the per-user 120',
  retryAfter: 'Limits, openapi.yaml: Retry-After of a 429 is a whole number of seconds, at most one 60-second window',
  remainingFalls: 'Limits: X-RateLimit-Remaining falls by one per call within a window',
} as const;

/** Answers of a chain to wait for a skipped Remaining value (a concurrent call answered late) before it is a failure. */
const LATE_ANSWERS = 4;

export interface Exchange {
  method: string;
  /** Path and query. */
  url: string;
  status: number;
  headers: Record<string, string>;
  text: string;
  operation: OperationInfo | undefined;
  /** The key sent, if any: rate-limit windows are counted per key and route class. */
  key: string | undefined;
  /** The server's now as the client read it when it sent the request (the answer was made after). */
  sentAt?: number;
}

interface WindowReading {
  limit: number;
  remaining: number;
  reset: number;
}

/**
 * What the rate-limit rules need of time: the server's now nearest an instant (for an answer to
 * a request sent at `sentAt`: a now it may have had between then and the answer), and the slack allowed.
 */
export interface RuleTime {
  nowNear(instant: number, sentAt?: number): number;
  readonly toleranceMs: number;
}

export class ResponseRules {
  /** The last successful reading per key and route class, to see Remaining fall, with the values skipped and not yet seen. */
  private readonly chains = new Map<string, WindowReading & { late: Map<number, number> }>();

  constructor(
    private readonly validator: ContractValidator,
    private readonly time: RuleTime,
    private readonly level: ContractLevel,
  ) {}

  /** A key was used outside the REST calls these rules see (a tool call over MCP): its windows moved unseen. */
  forget(key: string): void {
    for (const chain of [...this.chains.keys()]) if (chain.startsWith(`${key}|`)) this.chains.delete(chain);
  }

  /** Every rule the response breaks, as messages that start with the rule. */
  inspect(x: Exchange): string[] {
    const failures: string[] = [];
    const where = `${x.method} ${x.url} → ${x.status}${x.operation ? ` (${x.operation.id})` : ''}`;
    const fail = (rule: string, detail: string) => failures.push(`${rule}\n    ${where}: ${detail}`);

    for (const v of this.validator.validate({ method: x.method, url: x.url, status: x.status, headers: x.headers, body: x.text })) {
      fail(RULES.contract, `[${v.operation} ${v.status} ${v.rule}] ${v.message}`);
    }
    if (x.status >= 500) fail(RULES.noServerError, `body ${x.text.slice(0, 200)}`);
    if (x.status >= 400) this.errorShape(x, fail);
    if (x.operation) this.rateLimits(x, x.operation, fail);
    else if (x.url.startsWith('/api/')) this.rateHeadersPresent(x, fail); // "every response": a path no operation has, a method it lacks
    if (x.status === 429) this.retryAfter(x, fail);
    return failures;
  }

  private errorShape(x: Exchange, fail: (rule: string, detail: string) => void): void {
    let body: any;
    try {
      body = JSON.parse(x.text);
    } catch {
      return fail(RULES.errorShape, `the body is not JSON: ${JSON.stringify(x.text.slice(0, 120))}`);
    }
    const problems: string[] = [];
    if (typeof body?.error !== 'string' || body.error === '') problems.push('error is not a non-empty string');
    if (typeof body?.code !== 'string') problems.push('code is not a string');
    if (typeof body?.details !== 'object' || body.details === null || Array.isArray(body.details)) problems.push('details is not an object');
    if (problems.length) fail(RULES.errorShape, `${problems.join('; ')}: ${x.text.slice(0, 200)}`);
  }

  /** Strict: Retry-After is present, in whole seconds; documented: when it is a number, it is whole seconds within the minute. */
  private retryAfter(x: Exchange, fail: (rule: string, detail: string) => void): void {
    const value = x.headers['retry-after'];
    const detail = `Retry-After ${JSON.stringify(value ?? null)}`;
    if (value === undefined) {
      if (this.level === 'strict') fail(RULES.retryAfter, detail);
      return;
    }
    if (/^\d+$/.test(value)) {
      if (Number(value) > 60) fail(RULES.retryAfter, detail);
      return;
    }
    // An HTTP-date is valid HTTP (RFC 9110) though not what openapi.yaml states; a fraction of a second is neither.
    if (this.level === 'strict' || /^[\d.]+$/.test(value)) fail(RULES.retryAfter, detail);
  }

  private rateHeadersPresent(x: Exchange, fail: (rule: string, detail: string) => void): void {
    const names = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];
    if (names.some((n) => !/^\d+$/.test(x.headers[n] ?? ''))) fail(RULES.rateHeaders, names.map((n) => `${n}=${x.headers[n] ?? '(missing)'}`).join(', '));
  }

  private rateLimits(x: Exchange, op: OperationInfo, fail: (rule: string, detail: string) => void): void {
    const read = (name: string) => (x.headers[name] !== undefined && /^\d+$/.test(x.headers[name] as string) ? Number(x.headers[name]) : undefined);
    const limit = read('x-ratelimit-limit');
    const remaining = read('x-ratelimit-remaining');
    const reset = read('x-ratelimit-reset');
    if (limit === undefined || remaining === undefined || reset === undefined) {
      const shown = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'].map((n) => `${n}=${x.headers[n] ?? '(missing)'}`);
      return fail(RULES.rateHeaders, shown.join(', '));
    }
    if (remaining > limit) fail(RULES.remainingBounds, `Remaining ${remaining} > Limit ${limit}`);
    // A window resets within the minute after now: now by the account's clock, or by the simulator's for a 401.
    const now = this.time.nowNear(reset * 1000 - 30_000, x.sentAt);
    if (reset * 1000 < now - this.time.toleranceMs) {
      fail(RULES.resetFuture, `Reset ${reset} is ${Math.round((now - reset * 1000) / 1000)} s before the server's now (${Math.floor(now / 1000)})`);
    }
    if (reset * 1000 > now + 60_000 + this.time.toleranceMs) {
      fail(RULES.resetWindow, `Reset ${reset} is ${Math.round((reset * 1000 - now) / 1000)} s after the server's now`);
    }
    const classLimit = CLASS_LIMITS[op.rateClass];
    if (classLimit !== undefined && limit !== classLimit && limit !== USER_LIMIT) {
      fail(RULES.limitClass, `Limit ${limit} on a route of class ${op.rateClass} (expected ${classLimit}, or ${USER_LIMIT} when the user's window is the tighter)`);
    }
    this.remainingChain(x, op, { limit, remaining, reset }, classLimit, fail);
  }

  /**
   * Successive successful calls of one key and route class in one window: Remaining falls by
   * exactly one. Concurrent calls may be answered out of order: a value skipped is awaited
   * for a few answers (it comes late from a call that overlapped), and only then a failure.
   */
  private remainingChain(x: Exchange, op: OperationInfo, now: WindowReading, classLimit: number | undefined, fail: (rule: string, detail: string) => void): void {
    if (!x.key) return;
    const chainKey = `${x.key}|${op.rateClass}`;
    if (x.status < 200 || x.status >= 300) {
      this.chains.delete(chainKey); // whether a refused request counts is not stated
      return;
    }
    const before = this.chains.get(chainKey);
    if (!before || before.reset !== now.reset || before.limit !== now.limit || now.limit !== classLimit) {
      this.chains.set(chainKey, { ...now, late: new Map() });
      return;
    }
    if (before.late.delete(now.remaining)) return; // the answer of a call that overlapped a later one
    const detail = `Remaining went from ${before.remaining} to ${now.remaining} (Limit ${now.limit}, same window ending ${now.reset})`;
    for (const [value, age] of before.late) {
      if (age < LATE_ANSWERS) before.late.set(value, age + 1);
      else {
        before.late.delete(value);
        fail(RULES.remainingFalls, `no call was answered with Remaining ${value} between ${value + 1} and ${value - 1} (Limit ${now.limit}, same window ending ${now.reset})`);
      }
    }
    if (now.remaining < before.remaining - 1) for (let v = now.remaining + 1; v < before.remaining; v++) before.late.set(v, 0);
    else if (now.remaining !== before.remaining - 1) fail(RULES.remainingFalls, detail);
    this.chains.set(chainKey, { ...now, late: before.late });
  }
}
