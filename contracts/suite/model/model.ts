import type { ContractLevel } from '../../shared/contract-validator.js';
import type { Span } from './answer.js';

/**
 * The model of the API the sequences are checked against, written from the spec and
 * openapi.yaml alone (nothing of the simulator): what each account holds and what each call
 * must answer. Where the service decides something the client cannot see (when a failing
 * build fails, so when its refund is booked), the model keeps the possibilities open and
 * learns from what later answers show, never accepting two contradictory stories.
 */

/** Spec, States: the order a build moves in; `failed` may end any stage. */
export const STATUS_ORDER = ['pending', 'researching', 'drafting', 'critiquing', 'merging', 'completed'] as const;
export const STAGES = ['researching', 'drafting', 'critiquing', 'merging'] as const;

/** openapi.yaml, BuildCreate: the price of a page by kind (a blog is the spec's 1 token). */
export const KIND_PRICE: Readonly<Record<string, number>> = {
  blog: 1, web_page: 1, news: 1, how_to: 1, image: 1, social: 1, email: 1, doc: 2, resource: 2, press_release: 2,
};

/** Spec, Limits: the idempotency window. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

/** A single-page build is long over by then (spec: 3 to 8 minutes for a blog post); used only where the suite moves the clock. */
export const TERMINAL_AFTER_MS = 60 * 60 * 1000;

export interface ModelBuild {
  id: string;
  account: string;
  targetId: string;
  kind: string;
  cost: number;
  /** When the server made it: one instant, or a span when its answer came while the clocks were moving. */
  createdAt: Span;
  idempotencyKey: string | null;
  /** The stage a `[fail:<stage>]` objective makes it fail in (the simulator's documented magic input). */
  failStage: string | null;
  /** The furthest status seen (index in STATUS_ORDER, or 'failed'). */
  seen: number | 'failed' | undefined;
  /** A failing build's refund: not yet known to be booked, or booked. */
  refund: 'none' | 'pending' | 'booked';
}

export interface ModelKey {
  value: string;
  /** The key's id, for the keys the sequence created (the account's role keys have none here). */
  id?: string;
  name?: string;
  scopes: string[];
  status: 'active' | 'revoked';
  label: string;
}

export interface LedgerEntry {
  type: string;
  amount: number;
  buildId: string | null;
  bundleId: string | null;
}

export interface ModelAccount {
  label: string;
  keys: ModelKey[];
  /** Known for certain: everything except refunds of failing builds not yet seen booked. */
  balance: number;
  lifetimePurchased: number;
  lifetimeUsed: number;
  targets: string[];
  builds: ModelBuild[];
  idempotency: Map<string, { buildId: string; at: Span }>;
  /** Every Idempotency-Key a build creation of the sequence sent, with its body (refused ones too). */
  buildKeys: Array<{ key: string; body: Record<string, unknown> }>;
  purchases: Map<string, { bundleId: string; transactionId: string; at: number }>;
  purchaseKeys: Array<{ key: string; bundleId: string }>;
  /** New ledger entries of the sequence, oldest first, refunds apart. */
  ledger: LedgerEntry[];
  /** What the account held before the sequence (a real service's account is not fresh). */
  baseline: { builds: string[]; transactions: string[] };
}

export class ApiModel {
  readonly accounts: ModelAccount[] = [];
  /** Bundles on sale (strict, the simulator): [id, tokens], smallest first. */
  bundles: Array<{ id: string; tokens: number }> = [];
  private counter = 0;

  constructor(
    readonly level: ContractLevel,
    /** The suite moves the clock (the simulator): time-dependent outcomes are predictable. */
    readonly controlled: boolean,
    readonly now: () => number,
    readonly runTag: string,
    /** Tokens the phase spent, and how many it may (a real service's --token-budget): shared by every sequence. */
    readonly tokens: { spent: number; allowance: number },
  ) {}

  get strict(): boolean {
    return this.level === 'strict';
  }

  unique(prefix: string): string {
    return `${this.runTag}-${prefix}${++this.counter}`;
  }

  account(label: string): ModelAccount {
    return this.accounts.find((a) => a.label === label) as ModelAccount;
  }

  other(account: ModelAccount): ModelAccount | undefined {
    return this.accounts.find((a) => a !== account);
  }

  key(account: ModelAccount, label: string): ModelKey | undefined {
    return account.keys.find((k) => k.label === label);
  }

  allBuildIds(): Set<string> {
    return new Set(this.accounts.flatMap((a) => [...a.builds.map((b) => b.id), ...a.baseline.builds]));
  }

  /**
   * Whether a key replays: true or false, or undefined when either is right: at the documented
   * level within a second of the window's end (the spec's "within 24 hours" does not say which
   * side the instant itself falls on), and when the window ends within the span its creation
   * may have been made in.
   */
  replays(account: ModelAccount, key: string): { buildId: string } | false | undefined {
    const entry = account.idempotency.get(key);
    if (!entry) return false;
    const slack = this.strict ? 0 : 1000;
    const [youngest, oldest] = [this.now() - entry.at.to, this.now() - entry.at.from];
    if (oldest < IDEMPOTENCY_WINDOW_MS - slack) return entry;
    const over = this.strict ? youngest >= IDEMPOTENCY_WINDOW_MS : youngest > IDEMPOTENCY_WINDOW_MS + slack;
    return over ? false : undefined;
  }

  /** The least time certain to have passed since an instant or span of the accounts' time. */
  since(span: Span): number {
    return this.now() - span.to;
  }

  /** Strict, on a clock the suite moves: a failing build is over (and refunded) an hour on. */
  settle(account: ModelAccount): void {
    if (!this.strict || !this.controlled) return;
    for (const b of account.builds) if (b.refund === 'pending' && this.since(b.createdAt) >= TERMINAL_AFTER_MS) this.bookRefund(account, b);
  }

  pending(account: ModelAccount): ModelBuild[] {
    return account.builds.filter((b) => b.refund === 'pending');
  }

  bookRefund(account: ModelAccount, build: ModelBuild): void {
    if (build.refund !== 'pending') return;
    build.refund = 'booked';
    account.balance += build.cost;
    account.lifetimeUsed -= build.cost;
  }

  /**
   * What a balance read shows beyond the certain balance is refunds: it must be the sum of
   * some pending ones. When it is all of them, they are booked from now on.
   */
  learnRefunds(account: ModelAccount, refunded: number): boolean {
    const pending = this.pending(account);
    if (!subsetSums(pending.map((b) => b.cost)).has(refunded)) return false;
    if (refunded > 0 && refunded === pending.reduce((n, b) => n + b.cost, 0)) for (const b of pending) this.bookRefund(account, b);
    return true;
  }

  /** A build's cost (openapi.yaml's price table; the spec's blog is 1). */
  static cost(kind: string): number {
    return KIND_PRICE[kind] ?? 1;
  }
}

function subsetSums(values: number[]): Set<number> {
  let sums = new Set([0]);
  for (const v of values) sums = new Set([...sums, ...[...sums].map((s) => s + v)]);
  return sums;
}

export function statusIndex(status: string): number | 'failed' | undefined {
  if (status === 'failed') return 'failed';
  const i = (STATUS_ORDER as readonly string[]).indexOf(status);
  return i < 0 ? undefined : i;
}
