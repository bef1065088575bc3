import { originRelative } from '../engine/request-facts.js';
import type { EngineRequest, EngineResponse } from '../engine/types.js';
import { BoundedMap } from './bounded.js';
import { bodyDigest } from './digest.js';
import { Findings, type Transport } from './findings.js';
import {
  AFTER_END_WINDOW_MS,
  AUTH_RETRY_WINDOW_MS,
  CONCURRENT_MS,
  DUPLICATE_WINDOW_MS,
  IDEMPOTENCY_WINDOW_MS,
  POLL_MIN_GAP_MS,
  TASK_POLL_SHARE,
  type RuleId,
} from './rules.js';

/**
 * What is kept of one account's recent traffic to judge its next request, each table bounded
 * (the oldest entries go first): builds read, refused requests awaiting their retry by
 * credential, Idempotency-Keys and creation bodies, bodies refused with 402, MCP tasks read.
 */
export const TRACKED = { builds: 128, credentials: 16, refusalsPerCredential: 16, keys: 128, bodies: 128, unpaid: 16, tasks: 64 } as const;
/** Each table may hold a quarter more than its number above before its oldest entries go (see BoundedMap). */

/** A moment on both clocks: the account's (which tests move) and real time (which waiting moves). */
interface Moment {
  now: number;
  real: number;
}

/** Time between two moments: the longer of the two clocks, so a test that moves the account's clock and one that waits are both fair. */
function elapsed(from: Moment, to: Moment): number {
  return Math.max(to.now - from.now, to.real - from.real);
}

interface BuildReads extends Moment {
  fast: number;
  ended: boolean;
  afterEnd: number;
}

interface Refusal extends Moment {
  status: number;
  /** For a 429: how long the client had to wait before sending it again. */
  waitMs: number;
  /** 429s in a row for this request: the backoff step the spec allows doubles with each. */
  streak: number;
}

interface TaskReads extends Moment {
  intervalMs: number | undefined;
  fast: number;
}

/** One exchange as the judge sees it: the request, its answer, who sent it, and when on the account's clock. */
export interface JudgedExchange {
  request: EngineRequest;
  response: EngineResponse;
  operationId: string | undefined;
  credential: string;
  via: Transport;
  now: number;
  /** The account's balance after the exchange. */
  balance: number;
}

export class AccountJudge {
  readonly findings = new Findings();
  /** Rules this account switched off (the control API). */
  off = new Set<RuleId>();
  private readonly builds = new BoundedMap<string, BuildReads>(TRACKED.builds);
  private readonly refusals = new BoundedMap<string, BoundedMap<string, Refusal>>(TRACKED.credentials);
  private readonly keys = new BoundedMap<string, { digest: number; at: number }>(TRACKED.keys);
  private readonly bodies = new BoundedMap<number, Moment & { key: string; location: string }>(TRACKED.bodies);
  private readonly unpaid = new BoundedMap<number, number>(TRACKED.unpaid);
  private readonly tasks = new BoundedMap<string, TaskReads>(TRACKED.tasks);

  constructor(
    private readonly realNow: () => number,
    private readonly ruleOff: (rule: RuleId) => boolean,
  ) {}

  exchange(x: JudgedExchange): void {
    const status = x.response.status;
    const refused = this.refusals.get(x.credential);
    // Most exchanges stop here: nothing refused to retry, no poll, no creation.
    if (refused !== undefined || status === 429 || status === 401 || status === 403) this.judgeRetry(x, refused);
    if (x.operationId === 'getBuild') {
      if (status === 200) this.judgePoll(x);
    } else if (x.operationId === 'createBuild') {
      this.judgeCreation(x);
    }
  }

  /** A tasks/get answered: judged against the pollInterval the previous answer gave. */
  taskPolled(taskId: string, now: number, working: boolean, pollIntervalMs: number | undefined): void {
    const at = { now, real: this.realNow() };
    const previous = this.tasks.get(taskId);
    let fast = 0;
    if (previous?.intervalMs !== undefined) {
      const gap = elapsed(previous, at);
      if (gap < previous.intervalMs * TASK_POLL_SHARE) {
        fast = previous.fast + 1;
        if (fast >= 2) this.flag('mcp-task-poll-too-fast', now, 'tasks/get', taskId, 'mcp', () => `polled ${seconds(gap)} after the previous tasks/get, whose pollInterval was ${previous.intervalMs} ms`);
      }
    }
    this.tasks.set(taskId, { ...at, intervalMs: working ? pollIntervalMs : undefined, fast });
  }

  /** `problem` is worded only for an example kept: a client that breaks a rule in a loop costs a count, not a string. */
  private flag(rule: RuleId, at: number, method: string, path: string, via: Transport, problem: () => string): void {
    if (this.off.has(rule) || this.ruleOff(rule)) return;
    this.findings.add(rule, at, method, path, via, problem);
  }

  private judgeRetry(x: JudgedExchange, refused: BoundedMap<string, Refusal> | undefined): void {
    const { request, response, now } = x;
    const status = response.status;
    const path = originRelative(request.url);
    const signature = `${request.method.toUpperCase()} ${path} ${bodyDigest(request.body)}`;
    const at = { now, real: this.realNow() };
    const before = refused?.get(signature);
    if (before) {
      const gap = elapsed(before, at);
      if (before.status === 429 && gap < before.waitMs) {
        const rule = x.via === 'mcp' ? 'mcp-tool-retry-before-reset' : 'retry-before-reset';
        this.flag(rule, now, request.method, path, x.via, () => `sent again ${seconds(gap)} after a 429 that asked for ${seconds(before.waitMs)}`);
      } else if (before.status !== 429 && gap < AUTH_RETRY_WINDOW_MS) {
        this.flag('retry-after-auth-error', now, request.method, path, x.via, () => `sent again ${seconds(gap)} after a ${before.status} with the same credential`);
      }
    }
    if (status === 429) {
      const streak = before?.status === 429 ? before.streak + 1 : 1;
      const table = refused ?? this.refusalsOf(x.credential);
      table.set(signature, { ...at, status, streak, waitMs: rateLimitWait(response, now, streak) });
    } else if (status === 401 || status === 403) {
      (refused ?? this.refusalsOf(x.credential)).set(signature, { now, real: at.real, status, streak: 0, waitMs: 0 });
    } else if (before) {
      refused?.delete(signature);
    }
    // A credential whose refusals were all waited out is let go: its next requests cost nothing here.
    if (refused && status !== 429 && status !== 401 && status !== 403) {
      for (const [key, refusal] of refused) if (elapsed(refusal, at) >= (refusal.status === 429 ? refusal.waitMs : AUTH_RETRY_WINDOW_MS)) refused.delete(key);
      if (refused.size === 0) this.refusals.delete(x.credential);
    }
  }

  private refusalsOf(credential: string): BoundedMap<string, Refusal> {
    const table = new BoundedMap<string, Refusal>(TRACKED.refusalsPerCredential);
    this.refusals.set(credential, table);
    return table;
  }

  private judgePoll(x: JudgedExchange): void {
    // Keyed by the build's path (`/api/v1/builds/{id}`), the form a creation's Location has too: nothing is sliced.
    const path = originRelative(x.request.url);
    const ended = buildEnded(x.response.body);
    const real = this.realNow();
    // Every read of a build comes here: its entry is updated in place, nothing is allocated after the first.
    const reads = this.builds.get(path);
    if (!reads) return void this.builds.set(path, { now: x.now, real, fast: 0, ended, afterEnd: 0 });
    const gap = Math.max(x.now - reads.now, real - reads.real);
    reads.now = x.now;
    reads.real = real;
    if (reads.ended) {
      reads.afterEnd++;
      if (reads.afterEnd >= 2 && gap < AFTER_END_WINDOW_MS) this.flag('poll-after-end', x.now, 'GET', path, x.via, () => `read ${seconds(gap)} after the previous read, ${reads.afterEnd} reads after it answered ${buildStatus(x.response.body) ?? 'its end'}`);
    } else if (gap < POLL_MIN_GAP_MS) {
      reads.fast++;
      if (reads.fast >= 2) this.flag('poll-too-fast', x.now, 'GET', path, x.via, () => `read ${seconds(gap)} after the previous read while ${buildStatus(x.response.body) ?? 'running'} (suggested: 30 s)`);
    } else {
      reads.fast = 0;
    }
    reads.ended ||= ended;
  }

  private judgeCreation(x: JudgedExchange): void {
    const { request, response, now } = x;
    const path = originRelative(request.url);
    const key = request.headers['idempotency-key'];
    const digest = bodyDigest(request.body);
    if (key === undefined || key === '') {
      this.flag('create-without-idempotency-key', now, 'POST', path, x.via, () => 'no Idempotency-Key header');
    } else {
      const seen = this.keys.get(key);
      if (seen && now - seen.at < IDEMPOTENCY_WINDOW_MS) {
        if (seen.digest !== digest) this.flag('idempotency-key-reused', now, 'POST', path, x.via, () => `key ${clip(key)} was first sent with another body`);
      } else {
        this.keys.set(key, { digest, at: now });
      }
    }
    const unpaidAt = this.unpaid.get(digest);
    if (unpaidAt !== undefined) {
      if (unpaidAt === x.balance) this.flag('retry-after-402', now, 'POST', path, x.via, () => `the same creation sent again after a 402, balance still ${x.balance}`);
      else this.unpaid.delete(digest);
    }
    if (response.status === 402) this.unpaid.set(digest, x.balance);
    if (response.status === 202 && key) this.judgeDuplicate(x, key, digest);
  }

  /** A new build whose body an earlier one had, under another key: the retry of a creation whose answer was lost. */
  private judgeDuplicate(x: JudgedExchange, key: string, digest: number): void {
    const now = x.now;
    const real = this.realNow();
    const location = x.response.headers.location ?? '';
    const first = this.bodies.get(digest);
    if (!first) return void this.bodies.set(digest, { now, real, key, location });
    if (first.key !== key && now - first.now < DUPLICATE_WINDOW_MS && !this.builds.has(first.location)) {
      const concurrent = now - first.now < CONCURRENT_MS && real - first.real < CONCURRENT_MS;
      const gap = Math.max(now - first.now, real - first.real);
      const { location: firstBuild, key: firstKey } = first;
      if (!concurrent) this.flag('same-body-new-key', now, 'POST', originRelative(x.request.url), x.via, () => `same body as build ${firstBuild.slice(firstBuild.lastIndexOf('/') + 1)} (key ${clip(firstKey)}) ${seconds(gap)} earlier, now under key ${clip(key)}`);
    }
    // The newest creation of this body is the one a later retry would repeat: its entry is reused.
    first.now = now;
    first.real = real;
    first.key = key;
    first.location = location;
  }
}

/** How long a 429 asked the client to wait: until its reset, its Retry-After, or the backoff step, whichever is soonest. */
function rateLimitWait(response: EngineResponse, now: number, streak: number): number {
  const backoff = 1000 * 2 ** Math.min(streak - 1, 20);
  const reset = Number(response.headers['x-ratelimit-reset']) * 1000 - now;
  const retryAfter = Number(response.headers['retry-after']) * 1000;
  let wait = backoff;
  if (Number.isFinite(reset) && reset < wait) wait = Math.max(0, reset);
  if (Number.isFinite(retryAfter) && retryAfter < wait) wait = Math.max(0, retryAfter);
  return wait;
}

/** Whether getBuild's JSON text says the build ended, read in place (no string is made). */
function buildEnded(body: string | Uint8Array): boolean {
  if (typeof body !== 'string') return false;
  const start = body.indexOf('"status":"');
  return start !== -1 && (body.startsWith('completed"', start + 10) || body.startsWith('failed"', start + 10));
}

/** The build's status from getBuild's JSON text: its first `"status"` is the build's (fields come before stages). */
function buildStatus(body: string | Uint8Array): string | undefined {
  if (typeof body !== 'string') return undefined;
  const start = body.indexOf('"status":"');
  if (start === -1) return undefined;
  const from = start + 10;
  return body.slice(from, body.indexOf('"', from));
}

function seconds(ms: number): string {
  return `${Math.round(Math.max(0, ms)) / 1000} s`;
}

/** Keys are the client's own strings: shown only by their first characters. */
function clip(key: string): string {
  return JSON.stringify(key.length > 24 ? `${key.slice(0, 24)}…` : key);
}
