import { originRelative } from '../engine/request-facts.js';
import type { EngineResponse } from '../engine/types.js';
import type { Build } from '../store/build-record.js';
import { statusAt } from '../store/schedule.js';
import { BoundedMap } from './bounded.js';
import { CREATIONS_TRACKED, CreationJudge, seconds, type CreationHost } from './creation-judge.js';
import { bodyDigest } from './digest.js';
import { Findings } from './findings.js';
import type { JudgedExchange } from './judged-exchange.js';
import {
  AFTER_END_WINDOW_MS,
  AUTH_RETRY_WINDOW_MS,
  POLL_MIN_GAP_MS,
  RULE_BITS,
  ruleBits,
  TASK_POLL_SHARE,
  type RuleId,
} from './rules.js';

/**
 * What is kept of one account's recent traffic to judge its next request, each table bounded
 * (the oldest entries go first): builds read, refused requests awaiting their retry by
 * credential, Idempotency-Keys and creation bodies, bodies refused with 402, MCP tasks read.
 */
export const TRACKED = { builds: 128, credentials: 16, refusalsPerCredential: 16, ...CREATIONS_TRACKED, tasks: 64 } as const;
/** The keys and bodies hold exactly their number (see RingIndex); each other table may hold a quarter more before its oldest entries go (see BoundedMap). */

/** A moment on both clocks: the account's (which tests move) and real time (which waiting moves). */
interface Moment {
  now: number;
  real: number;
}

/** Time between two moments: the longer of the two clocks, so a test that moves the account's clock and one that waits are both fair. */
function elapsed(from: Moment, now: number, real: number): number {
  return Math.max(now - from.now, real - from.real);
}

interface BuildReads extends Moment {
  /** The build read, looked up once: whether it has ended is its schedule's answer at the read's time, as its answer said. */
  build: Build;
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


/**
 * Judges one account's client as its exchanges come. The request path pays a few field reads
 * for most exchanges: the tables are looked at only for a build read, a creation, a refusal,
 * or while a refused request awaits its retry; nothing is allocated for a read of a build
 * already tracked, and no answer's body is read (a build's end is its schedule's).
 */
export class AccountJudge implements CreationHost {
  readonly findings = new Findings();
  private ownOff: ReadonlySet<RuleId> = new Set();
  /** The rules not judged: switched off for every account, or for this one (bits of RULE_BITS). */
  private offBits: number;
  private readonly builds = new BoundedMap<string, BuildReads>(TRACKED.builds);
  private readonly refusals = new BoundedMap<string, BoundedMap<string, Refusal>>(TRACKED.credentials);
  /** Made at the account's first creation. */
  private creations: CreationJudge | undefined;
  private readonly tasks = new BoundedMap<string, TaskReads>(TRACKED.tasks);

  constructor(
    private readonly realNow: () => number,
    private readonly globalOffBits: number,
  ) {
    this.offBits = globalOffBits;
  }

  /** Rules this account switched off (the control API). */
  get off(): ReadonlySet<RuleId> {
    return this.ownOff;
  }

  set off(rules: ReadonlySet<RuleId>) {
    this.ownOff = new Set(rules);
    this.offBits = this.globalOffBits | ruleBits(rules);
  }

  /** Whether an exchange of this status and operation is judged at all: most are not (nothing refused to retry, no refusal, no poll, no creation). */
  looksAt(status: number, operationId: string | undefined): boolean {
    return this.refusals.size !== 0 || status === 429 || status === 401 || status === 403 || operationId === 'getBuild' || operationId === 'createBuild';
  }

  exchange(x: JudgedExchange): void {
    const status = x.response.status;
    // Most exchanges stop here: nothing refused to retry, no poll, no creation.
    const refused = this.refusals.size === 0 ? undefined : this.refusals.get(x.credential);
    if (refused !== undefined || status === 429 || status === 401 || status === 403) this.judgeRetry(x, refused);
    if (x.operationId === 'getBuild') {
      if (status === 200) this.judgePoll(x);
    } else if (x.operationId === 'createBuild') {
      (this.creations ??= new CreationJudge()).judge(x, this);
    }
  }

  /** A tasks/get answered: judged against the pollInterval the previous answer gave. */
  taskPolled(taskId: string, now: number, working: boolean, pollIntervalMs: number | undefined): void {
    const real = this.realNow();
    const previous = this.tasks.get(taskId);
    let fast = 0;
    if (previous?.intervalMs !== undefined) {
      const gap = elapsed(previous, now, real);
      if (gap < previous.intervalMs * TASK_POLL_SHARE) {
        fast = previous.fast + 1;
        if (fast >= 2 && this.breach('mcp-task-poll-too-fast', now)) {
          this.findings.example('mcp-task-poll-too-fast', now, 'tasks/get', taskId, 'mcp', `polled ${seconds(gap)} after the previous tasks/get, whose pollInterval was ${previous.intervalMs} ms`);
        }
      }
    }
    this.tasks.set(taskId, { now, real, intervalMs: working ? pollIntervalMs : undefined, fast });
  }

  /** Whether a build (by its path) was read since it was first read or created here. */
  wasRead(buildPath: string): boolean {
    return this.builds.has(buildPath);
  }

  /** Counts a breach of a rule judged here; true when an example of it is to be worded (see Findings.count). */
  breach(rule: RuleId, at: number): boolean {
    return (this.offBits & RULE_BITS[rule]) === 0 && this.findings.count(rule, at);
  }

  private judgeRetry(x: JudgedExchange, refused: BoundedMap<string, Refusal> | undefined): void {
    const { request, response, now, real } = x;
    const status = response.status;
    const path = originRelative(request.url);
    const signature = `${request.method.toUpperCase()} ${path} ${bodyDigest(request.body)}`;
    const before = refused?.get(signature);
    if (before) {
      const gap = elapsed(before, now, real);
      if (before.status === 429 && gap < before.waitMs) {
        const rule = x.via === 'mcp' ? 'mcp-tool-retry-before-reset' : 'retry-before-reset';
        if (this.breach(rule, now)) this.findings.example(rule, now, request.method, path, x.via, `sent again ${seconds(gap)} after a 429 that asked for ${seconds(before.waitMs)}`);
      } else if (before.status !== 429 && gap < AUTH_RETRY_WINDOW_MS) {
        if (this.breach('retry-after-auth-error', now)) this.findings.example('retry-after-auth-error', now, request.method, path, x.via, `sent again ${seconds(gap)} after a ${before.status} with the same credential`);
      }
    }
    if (status === 429) {
      const streak = before?.status === 429 ? before.streak + 1 : 1;
      const table = refused ?? this.refusalsOf(x.credential);
      table.set(signature, { now, real, status, streak, waitMs: rateLimitWait(response, now, streak) });
    } else if (status === 401 || status === 403) {
      (refused ?? this.refusalsOf(x.credential)).set(signature, { now, real, status, streak: 0, waitMs: 0 });
    } else if (before) {
      refused?.delete(signature);
    }
    // A credential whose refusals were all waited out is let go: its next requests cost nothing here.
    if (refused && status !== 429 && status !== 401 && status !== 403) {
      for (const [key, refusal] of refused) if (elapsed(refusal, now, real) >= (refusal.status === 429 ? refusal.waitMs : AUTH_RETRY_WINDOW_MS)) refused.delete(key);
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
    const { now, real } = x;
    // Every read of a build comes here: its entry is updated in place, nothing is allocated after the first.
    const reads = this.builds.get(path);
    if (reads === undefined) {
      const build = x.account.builds.get(buildIdOf(path));
      if (build !== undefined) this.builds.set(path, { now, real, build, fast: 0, ended: hasEnded(build, now), afterEnd: 0 });
      return;
    }
    const gap = Math.max(now - reads.now, real - reads.real);
    reads.now = now;
    reads.real = real;
    if (reads.ended) {
      reads.afterEnd++;
      if (reads.afterEnd >= 2 && gap < AFTER_END_WINDOW_MS && this.breach('poll-after-end', now)) {
        this.findings.example('poll-after-end', now, 'GET', path, x.via, `read ${seconds(gap)} after the previous read, ${reads.afterEnd} reads after it answered ${statusAt(reads.build.schedule, now)}`);
      }
    } else if (gap < POLL_MIN_GAP_MS) {
      reads.fast++;
      if (reads.fast >= 2 && this.breach('poll-too-fast', now)) {
        this.findings.example('poll-too-fast', now, 'GET', path, x.via, `read ${seconds(gap)} after the previous read while ${statusAt(reads.build.schedule, now)} (suggested: 30 s)`);
      }
    } else {
      reads.fast = 0;
    }
    if (!reads.ended) reads.ended = hasEnded(reads.build, now);
  }
}

/** Whether the build had ended (completed or failed) at `now`: what its answer at `now` said. */
function hasEnded(build: Build, now: number): boolean {
  const s = build.schedule;
  return now >= s.completeAt || (s.failure !== null && now >= s.failure.at);
}

/** The id in a build's path, `/api/v1/builds/{id}` (with a query, if any, left out). */
function buildIdOf(path: string): string {
  const query = path.indexOf('?');
  return path.slice(path.lastIndexOf('/', query === -1 ? path.length : query) + 1, query === -1 ? path.length : query);
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
