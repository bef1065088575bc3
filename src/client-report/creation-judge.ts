import { originRelative } from '../engine/request-facts.js';
import { BoundedMap } from './bounded.js';
import { bodyDigest } from './digest.js';
import type { Findings } from './findings.js';
import type { JudgedExchange } from './judged-exchange.js';
import { RingIndex } from './ring-index.js';
import { CONCURRENT_MS, DUPLICATE_WINDOW_MS, IDEMPOTENCY_WINDOW_MS, type RuleId } from './rules.js';

/** What a creation's judgement asks of the account's judge: whether a rule is judged (counting its breach), and whether a build was read. */
export interface CreationHost {
  readonly findings: Findings;
  breach(rule: RuleId, at: number): boolean;
  wasRead(buildPath: string): boolean;
}

/** How many Idempotency-Keys, creation bodies and bodies refused with 402 an account's judge keeps. */
export const CREATIONS_TRACKED = { keys: 128, bodies: 128, unpaid: 16 } as const;
/** The contract's longest Idempotency-Key: a longer one is refused (400) before it is used, and is not kept. */
const MAX_KEY_LENGTH = 255;

/**
 * Judges an account's build creations: no Idempotency-Key, a key reused with another body, the
 * same body created again under another key, a creation repeated after a 402. The keys and
 * bodies are kept in fixed tables (slots in arrays, made at the first creation): a creation
 * costs a digest of its body and two look-ups, and allocates nothing.
 */
export class CreationJudge {
  private readonly keys = new RingIndex<string>(CREATIONS_TRACKED.keys);
  private readonly keyDigest = new Float64Array(CREATIONS_TRACKED.keys);
  private readonly keyAt = new Float64Array(CREATIONS_TRACKED.keys);
  private readonly bodies = new RingIndex<number>(CREATIONS_TRACKED.bodies);
  private readonly bodyNow = new Float64Array(CREATIONS_TRACKED.bodies);
  private readonly bodyReal = new Float64Array(CREATIONS_TRACKED.bodies);
  private readonly bodyKey = new Array<string>(CREATIONS_TRACKED.bodies).fill('');
  private readonly bodyLocation = new Array<string>(CREATIONS_TRACKED.bodies).fill('');
  /** Body digest → the balance at its 402: rare, so a plain bounded map. */
  private readonly unpaid = new BoundedMap<number, number>(CREATIONS_TRACKED.unpaid);

  judge(x: JudgedExchange, host: CreationHost): void {
    const { request, response, now } = x;
    const key = request.headers['idempotency-key'];
    const digest = bodyDigest(request.body);
    const balance = x.account.balance;
    if (key === undefined || key === '') {
      if (host.breach('create-without-idempotency-key', now)) this.example(host, 'create-without-idempotency-key', x, 'no Idempotency-Key header');
    } else if (key.length <= MAX_KEY_LENGTH) {
      const slot = this.keys.slotOf(key);
      if (slot < 0) {
        this.keyDigest[-1 - slot] = digest;
        this.keyAt[-1 - slot] = now;
      } else if (now - (this.keyAt[slot] as number) < IDEMPOTENCY_WINDOW_MS) {
        if (this.keyDigest[slot] !== digest && host.breach('idempotency-key-reused', now)) this.example(host, 'idempotency-key-reused', x, `key ${clip(key)} was first sent with another body`);
      } else {
        // A key past its window starts afresh.
        this.keyDigest[slot] = digest;
        this.keyAt[slot] = now;
      }
    }
    if (this.unpaid.size !== 0) {
      const unpaidAt = this.unpaid.get(digest);
      if (unpaidAt === balance) {
        if (host.breach('retry-after-402', now)) this.example(host, 'retry-after-402', x, `the same creation sent again after a 402, balance still ${balance}`);
      } else if (unpaidAt !== undefined) {
        this.unpaid.delete(digest);
      }
    }
    if (response.status === 402) this.unpaid.set(digest, balance);
    if (response.status === 202 && key) this.judgeDuplicate(x, host, key, digest);
  }

  /** A new build whose body an earlier one had, under another key: the retry of a creation whose answer was lost. */
  private judgeDuplicate(x: JudgedExchange, host: CreationHost, key: string, digest: number): void {
    const { now, real } = x;
    const location = x.response.headers.location ?? '';
    let slot = this.bodies.slotOf(digest);
    if (slot < 0) {
      slot = -1 - slot;
    } else {
      const firstNow = this.bodyNow[slot] as number;
      const firstReal = this.bodyReal[slot] as number;
      const firstKey = this.bodyKey[slot] as string;
      const firstBuild = this.bodyLocation[slot] as string;
      // Cheapest first: creations sent together (concurrent) are distinct builds, whatever was read.
      const concurrent = now - firstNow < CONCURRENT_MS && real - firstReal < CONCURRENT_MS;
      if (!concurrent && firstKey !== key && now - firstNow < DUPLICATE_WINDOW_MS && !host.wasRead(firstBuild)) {
        if (host.breach('same-body-new-key', now)) {
          const gap = Math.max(now - firstNow, real - firstReal);
          const id = firstBuild.slice(firstBuild.lastIndexOf('/') + 1);
          this.example(host, 'same-body-new-key', x, `same body as build ${id} (key ${clip(firstKey)}) ${seconds(gap)} earlier, now under key ${clip(key)}`);
        }
      }
    }
    // The newest creation of this body is the one a later retry would repeat.
    this.bodyNow[slot] = now;
    this.bodyReal[slot] = real;
    this.bodyKey[slot] = key;
    this.bodyLocation[slot] = location;
  }

  private example(host: CreationHost, rule: RuleId, x: JudgedExchange, problem: string): void {
    host.findings.example(rule, x.now, 'POST', originRelative(x.request.url), x.via, problem);
  }
}

export function seconds(ms: number): string {
  return `${Math.round(Math.max(0, ms)) / 1000} s`;
}

/** Keys are the client's own strings: shown only by their first characters. */
function clip(key: string): string {
  return JSON.stringify(key.length > 24 ? `${key.slice(0, 24)}…` : key);
}
