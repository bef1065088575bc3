import { toIso } from '../clock/clock.js';
import { notFound } from '../errors/api-error.js';
import type { Account } from '../store/account.js';
import type { BuildRecord } from '../store/records.js';
import type { ControlHandler } from './context.js';
import { buildJson } from './serialize.js';
import { accountClockJson } from './account-clock-json.js';
import type { SimulatorState } from '../state/simulator-state.js';
import { quotaUsage, type QuotaName } from '../limits/quotas.js';
import { MAX_FAULT_RULES_PER_ACCOUNT } from '../observe/faults.js';

/**
 * What the dashboard (and any script that watches a shared simulator) reads across accounts:
 * balances, key hints and the newest builds. Keys appear only as hints.
 */

export const listSimulatorAccounts: ControlHandler = ({ sim, params }) => {
  const { limit } = params.query as { limit: number };
  const accounts = [...sim.store.accounts.values()].slice(-limit).reverse();
  return { status: 200, json: { data: accounts.map((account) => accountSummary(sim, account)), total: sim.store.accounts.size } };
};

export const getSimulatorAccount: ControlHandler = ({ sim, params }) => {
  const account = sim.store.account(params.path.accountId as string);
  if (!account) throw notFound('account', params.path.accountId as string);
  return { status: 200, json: accountSummary(sim, account) };
};

/** Each quota's limit and use: constant time, from the collections' sizes. */
function quotasJson(sim: SimulatorState, account: Account) {
  const used = quotaUsage(account);
  const quotas = {} as Record<QuotaName | 'faultRules', { limit: number; used: number }>;
  for (const name of Object.keys(used) as QuotaName[]) quotas[name] = { limit: sim.quotas[name], used: used[name] };
  quotas.faultRules = { limit: MAX_FAULT_RULES_PER_ACCOUNT, used: sim.faults.heldBy(account.id) };
  return quotas;
}

function accountSummary(sim: SimulatorState, account: Account) {
  return {
    quotas: quotasJson(sim, account),
    ...(account.clock === null ? {} : { clock: accountClockJson(sim, account) }),
    accountId: account.id,
    name: account.name,
    balance: account.balance,
    createdAt: toIso(account.createdAt),
    builds: account.builds.size,
    keys: account.keys.page(100, undefined).data.map((k) => ({ id: k.id, name: k.name, hint: k.hint, scopes: k.scopes, revoked: k.revokedAt !== null })),
  };
}

export const listSimulatorBuilds: ControlHandler = ({ sim, params, now }) => {
  const { accountId, limit } = params.query as { accountId?: string; limit: number };
  let accounts: Account[];
  if (accountId === undefined) accounts = [...sim.store.accounts.values()];
  else {
    const account = sim.store.account(accountId);
    if (!account) throw notFound('account', accountId);
    accounts = [account];
  }
  // Each account's newest `limit`, merged: never more than accounts × limit records read. Merged
  // on the simulator's clock: a build dated on an account clock hours ahead is not newer for it.
  const newest = accounts
    .flatMap((account) => {
      const ahead = account.now(now) - now;
      return account.builds.page(limit, undefined).data.map((build) => ({ account, build, made: build.createdAt - ahead }));
    })
    .sort((a, b) => b.made - a.made)
    .slice(0, limit);
  return { status: 200, json: { data: newest.map(({ account, build }) => buildSummary(account, build, account.now(now))) } };
};

function buildSummary(account: Account, build: BuildRecord, now: number) {
  const full = buildJson(build, now);
  return {
    accountId: account.id,
    id: full.id,
    kind: full.kind,
    buildType: full.buildType,
    objective: full.objective,
    status: full.status,
    progress: full.progress,
    // A failed build names the stage it failed in, as its `failure` does: the dashboard shows where it stopped.
    stage: full.failure?.stage ?? full.stages.find((s) => s.status === 'running')?.stage ?? null,
    createdAt: full.createdAt,
    estimatedCompletionAt: full.estimatedCompletionAt,
    completedAt: full.completedAt,
  };
}
