import type { ApiModel, ModelAccount } from '../model.js';
import type { Answer, World } from '../world.js';
import { expectBalance, expectOk, expectRoleRefusal, fail, keyOf, refusalFor, seen, type As, type ModelCommand, type Via } from './common.js';

const TARGET = 'Endpoints: POST /api/v1/targets creates the target it was given (id, name, slug)';
const LIST = 'openapi.yaml: GET /api/v1/builds lists every build of the account, newest first, and nothing else';
const LEDGER = 'openapi.yaml: the transactions are the ledger: one build_charge of −cost per build, one purchase per bundle bought, one build_refund of +cost per failed build, newest first, each balanceAfter the one before plus its amount, the newest the balance';

export class CreateTarget implements ModelCommand {
  constructor(
    readonly account: string,
    readonly as: As,
    readonly via: Via,
  ) {}

  check(model: ApiModel): boolean {
    return keyOf(model, model.account(this.account), this.as) !== undefined;
  }

  async run(model: ApiModel, world: World): Promise<void> {
    const account = model.account(this.account);
    const slug = model.unique('t').toLowerCase().replace(/[^a-z0-9-]/g, '-').slice(-60);
    const body = { name: `Model target ${slug}`, slug, description: 'Created by the contract suite\'s model-based phase', brandKit: { voice: 'plain', tone: 'calm' } };
    const key = keyOf(model, account, this.as) as string;
    const a = this.via === 'mcp' ? await world.mcp(key, 'createTarget', body) : await world.rest('createTarget', { key, body });
    const refusal = refusalFor(this.as === 'other' ? 'readWrite' : this.as, 'svc:write');
    if (refusal) return expectRoleRefusal(model, a, refusal);
    expectOk(model, a, 201, TARGET);
    if (typeof a.json?.id !== 'string' || a.json.name !== body.name || a.json.slug !== body.slug) fail(TARGET, seen(a));
    // Another account's key creates the target in that account.
    const owner = this.as === 'other' ? (model.other(account) as ModelAccount) : account;
    owner.targets.push(a.json.id);
  }

  toString(): string {
    return `createTarget(${this.account}, as ${this.as}${this.via === 'mcp' ? ', over MCP' : ''})`;
  }
}

export class ReadBalance implements ModelCommand {
  constructor(
    readonly account: string,
    readonly as: As,
    readonly via: Via,
  ) {}

  check(model: ApiModel): boolean {
    return this.as !== 'other' && keyOf(model, model.account(this.account), this.as) !== undefined;
  }

  async run(model: ApiModel, world: World): Promise<void> {
    const account = model.account(this.account);
    const key = keyOf(model, account, this.as) as string;
    const a = this.via === 'mcp' ? await world.mcp(key, 'getTokenBalance', {}) : await world.rest('getTokenBalance', { key });
    const refusal = refusalFor(this.as, 'svc:read');
    if (refusal) return expectRoleRefusal(model, a, refusal);
    expectOk(model, a, 200, 'Endpoints: GET /api/v1/tokens/balance answers the balance');
    expectBalance(model, account, a.json, `getTokenBalance of ${account.label}`);
  }

  toString(): string {
    return `getTokenBalance(${this.account}, as ${this.as}${this.via === 'mcp' ? ', over MCP' : ''})`;
  }
}

export class ListBuilds implements ModelCommand {
  constructor(readonly account: string) {}

  check(): boolean {
    return true;
  }

  async run(model: ApiModel, world: World): Promise<void> {
    const account = model.account(this.account);
    const a = await world.rest('listBuilds', { key: keyOf(model, account, 'readWrite'), query: { limit: '100' } });
    expectOk(model, a, 200, LIST);
    const expected = [...account.builds.map((b) => b.id).reverse(), ...account.baseline.builds].slice(0, 100);
    const got = (a.json?.data ?? []).map((b: { id: string }) => b.id);
    if (JSON.stringify(got) !== JSON.stringify(expected)) fail(LIST, `${account.label}: the model expects ${JSON.stringify(expected)}, got ${JSON.stringify(got)}`);
  }

  toString(): string {
    return `listBuilds(${this.account})`;
  }
}

export class ListTransactions implements ModelCommand {
  constructor(readonly account: string) {}

  check(): boolean {
    return true;
  }

  async run(model: ApiModel, world: World): Promise<void> {
    const account = model.account(this.account);
    const a = await world.rest('listTokenTransactions', { key: keyOf(model, account, 'readWrite'), query: { limit: '100' } });
    expectOk(model, a, 200, LEDGER);
    checkLedger(model, account, a);
  }

  toString(): string {
    return `listTokenTransactions(${this.account})`;
  }
}

function checkLedger(model: ApiModel, account: ModelAccount, a: Answer): void {
  model.settle(account);
  const data = (a.json?.data ?? []) as Array<{ id: string; type: string; amount: number; balanceAfter: number; buildId: string | null; bundleId: string | null }>;
  const where = (detail: string) => `${account.label}: ${detail}; newest first: ${JSON.stringify(data.slice(0, 8).map((t) => [t.type, t.amount, t.balanceAfter]))}`;
  const baseline = new Set(account.baseline.transactions);
  const fresh = data.filter((t) => !baseline.has(t.id)).reverse(); // oldest first
  if (data.length === 100) return; // a page that does not reach the sequence's start cannot be compared
  for (let i = 0; i + 1 < data.length; i++) {
    const newer = data[i]!;
    const older = data[i + 1]!;
    if (newer.balanceAfter !== older.balanceAfter + newer.amount) fail(LEDGER, where(`balanceAfter ${newer.balanceAfter} of ${newer.type} ${newer.id} is not ${older.balanceAfter} + ${newer.amount}`));
  }
  const refunds = fresh.filter((t) => t.type === 'build_refund');
  for (const r of refunds) {
    const build = account.builds.find((b) => b.id === r.buildId);
    if (!build?.failStage || r.amount !== build.cost) fail(LEDGER, where(`a build_refund of ${r.amount} for build ${r.buildId}, which the model has ${build ? `costing ${build.cost}${build.failStage ? '' : ' and not failing'}` : 'not'}`));
    if (refunds.filter((x) => x.buildId === r.buildId).length > 1) fail(LEDGER, where(`build ${r.buildId} is refunded twice`));
    model.bookRefund(account, build);
  }
  for (const b of account.builds) {
    if (b.refund === 'booked' && !refunds.some((r) => r.buildId === b.id)) fail(LEDGER, where(`no build_refund for the failed build ${b.id}`));
  }
  const entries = fresh.filter((t) => t.type !== 'build_refund').map((t) => ({ type: t.type, amount: t.amount, buildId: t.buildId, bundleId: t.bundleId }));
  if (JSON.stringify(entries) !== JSON.stringify(account.ledger)) fail(LEDGER, where(`the model expects ${JSON.stringify(account.ledger)} (oldest first, refunds apart), got ${JSON.stringify(entries)}`));
  const newest = data[0];
  if (newest && newest.balanceAfter !== account.balance) fail(LEDGER, where(`the newest balanceAfter is ${newest.balanceAfter}, the balance by the model ${account.balance}`));
}

export class AdvanceClock implements ModelCommand {
  constructor(readonly ms: number) {}

  check(model: ApiModel): boolean {
    return model.controlled;
  }

  async run(_model: ApiModel, world: World): Promise<void> {
    await world.advance(this.ms);
  }

  toString(): string {
    return `advance the accounts' clocks ${formatMs(this.ms)}`;
  }
}

function formatMs(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  if (ms % 60_000 === 0) return `${ms / 60_000} min`;
  return `${ms / 1000} s`;
}
