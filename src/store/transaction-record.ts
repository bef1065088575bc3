import type { BuildRecord, TransactionRecord, TransactionType } from './records.js';
import { Interner } from './interner.js';

/**
 * Ledger entries as the store keeps them. A build's charge and refund say which build they
 * are for in their description, so that text is made when read, from the build id and a short
 * detail shared between builds ("1 × blog"), rather than kept: about 70 bytes a build less.
 * Every other entry keeps its description as written.
 */

/** The part of a charge's description after the build id ("1 × blog"), one copy per distinct value. */
const details = new Interner(1024);

export interface NewTransaction {
  id: string;
  type: TransactionType;
  amount: number;
  balanceAfter: number;
  buildId: string | null;
  bundleId?: string;
  createdAt: number;
}

/** A build charge or refund: its description is derived. */
class BuildTransaction implements TransactionRecord {
  readonly id: string;
  readonly type: TransactionType;
  readonly amount: number;
  readonly balanceAfter: number;
  readonly buildId: string;
  readonly createdAt: number;
  private readonly detail: string;

  constructor(t: NewTransaction & { buildId: string }, detail: string) {
    this.id = t.id;
    this.type = t.type;
    this.amount = t.amount;
    this.balanceAfter = t.balanceAfter;
    this.buildId = t.buildId;
    this.createdAt = t.createdAt;
    this.detail = detail;
  }

  get description(): string {
    return this.type === 'build_refund' ? `Refund of failed build ${this.buildId}` : `Build ${this.buildId}: ${this.detail}`;
  }
}

/** What a build's charge reads from the build it pays for. */
export type ChargedBuild = Pick<BuildRecord, 'id' | 'cost' | 'createdAt' | 'pages' | 'kind'>;

/**
 * A build's charge booked as the build was made: its amount, instant, build id and description
 * are the build's own, so the entry keeps a reference to the build instead (builds are never
 * removed, bar an account reset that clears the ledger too): 48 bytes a build less.
 */
class ChargeOfBuild implements TransactionRecord {
  constructor(
    readonly id: string,
    readonly balanceAfter: number,
    private readonly build: ChargedBuild,
  ) {}

  get type(): TransactionType { return 'build_charge'; }
  get amount(): number { return -this.build.cost; }
  get buildId(): string { return this.build.id; }
  get createdAt(): number { return this.build.createdAt; }
  get description(): string { return `Build ${this.build.id}: ${this.build.pages} × ${this.build.kind}`; }
}

/** The description of a build's charge: "Build <id>: <pages> × <kind>". */
export function buildCharge(t: NewTransaction, build: ChargedBuild): TransactionRecord {
  if (t.type === 'build_charge' && t.amount === -build.cost && t.createdAt === build.createdAt && t.buildId === build.id && t.bundleId === undefined) {
    return new ChargeOfBuild(t.id, t.balanceAfter, build);
  }
  return new BuildTransaction({ ...t, buildId: build.id }, details.of(`${build.pages} × ${build.kind}`));
}

/** "Refund of failed build <id>". */
export function buildRefund(t: NewTransaction & { buildId: string }): TransactionRecord {
  return new BuildTransaction(t, '');
}

/** Any entry, with the description it was given. */
export function describedTransaction(t: NewTransaction, description: string): TransactionRecord {
  return { id: t.id, type: t.type, amount: t.amount, balanceAfter: t.balanceAfter, description, buildId: t.buildId, ...(t.bundleId === undefined ? {} : { bundleId: t.bundleId }), createdAt: t.createdAt };
}

/** The plain form a saved simulation writes. */
export function savedTransaction(t: TransactionRecord): TransactionRecord {
  return describedTransaction(t, t.description);
}

/**
 * Back from the saved form: compact again where the description is the one a build's entry
 * derives, and a charge that is all its build's (`buildOf` finds the restored build) reads it.
 */
export function restoredTransaction(t: TransactionRecord, buildOf: (id: string) => ChargedBuild | undefined = () => undefined): TransactionRecord {
  if (t.buildId !== null && t.bundleId === undefined) {
    const entry = { ...t, buildId: t.buildId };
    const chargePrefix = `Build ${t.buildId}: `;
    const build = t.type === 'build_charge' ? buildOf(t.buildId) : undefined;
    if (build && t.description === `${chargePrefix}${build.pages} × ${build.kind}`) return buildCharge(entry, build);
    if (t.type === 'build_charge' && t.description.startsWith(chargePrefix)) return new BuildTransaction(entry, details.of(t.description.slice(chargePrefix.length)));
    if (t.type === 'build_refund' && t.description === `Refund of failed build ${t.buildId}`) return new BuildTransaction(entry, '');
  }
  return describedTransaction(t, t.description);
}
