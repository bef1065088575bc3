import { ContractFailure } from '../../shared/outcomes.js';
import type { ApiModel, ModelAccount, ModelKey } from './model.js';
import type { AccountKeys, World, WorldAccount } from './world.js';

/** Tokens of the fresh simulator accounts: enough for some builds, few enough that 402 comes. */
const BALANCES = { A: 6, B: 2 } as const;

const SCOPES: Readonly<Record<keyof AccountKeys, string[]>> = {
  readWrite: ['svc:read', 'svc:write'],
  readOnly: ['svc:read'],
  writeOnly: ['svc:write'],
  revoked: ['svc:read', 'svc:write'],
};

const SETUP = 'Model-based phase: a sequence starts from what the accounts hold (balance, builds, transactions), read with their own keys';

/**
 * The accounts a sequence runs on, and what the model knows of them at its start. On the
 * simulator: two accounts, empty, with keys of every role and clocks of their own, frozen at
 * one instant, so that nothing outside the sequence touches them. Elsewhere: the accounts of the
 * keys the suite was given (the read-write key's, and the empty-balance key's), read first.
 * Each gets a target, so that builds have something to belong to.
 */
export async function openAccounts(model: ApiModel, world: World): Promise<void> {
  world.accounts = [];
  const accounts: WorldAccount[] = [];
  if (world.controlled) {
    for (const label of ['A', 'B'] as const) accounts.push(await world.openAccount(label, BALANCES[label], `Contract model ${world.s.config.runId} ${label}`));
  } else {
    const { readWrite, readOnly, writeOnly, revoked, empty } = world.s.keys;
    accounts.push({ label: 'A', keys: { readWrite: readWrite as string, readOnly, writeOnly, revoked } });
    if (empty) accounts.push({ label: 'B', keys: { readWrite: empty } });
    world.accounts = accounts;
  }
  for (const account of accounts) model.accounts.push(await baseline(model, world, account));
  if (model.strict && world.controlled) {
    const trace = world.trace;
    world.trace = undefined;
    const bundles = await world.rest('listTokenBundles', { key: accounts[0]!.keys.readWrite }).finally(() => (world.trace = trace));
    model.bundles = ((bundles.json?.data ?? []) as Array<{ id: string; tokens: number }>).slice(0, 2).map((b) => ({ id: b.id, tokens: b.tokens }));
  }
}

async function baseline(model: ApiModel, world: World, account: WorldAccount): Promise<ModelAccount> {
  const key = account.keys.readWrite;
  // What the account holds is read for the model; a reproduction does not need these reads.
  const read = async (operationId: string, query?: Record<string, string>) => {
    const trace = world.trace;
    world.trace = undefined;
    const a = await world.rest(operationId, { key, query }).finally(() => (world.trace = trace));
    if (!a.ok) throw new ContractFailure(`${SETUP}\n    ${operationId} of account ${account.label}: got ${a.status} ${a.text.slice(0, 200)}`);
    return a.json;
  };
  const balance = await read('getTokenBalance');
  const builds = model.strict ? ((await read('listBuilds', { limit: '100' })).data as Array<{ id: string }>).map((b) => b.id) : [];
  const transactions = model.strict ? ((await read('listTokenTransactions', { limit: '100' })).data as Array<{ id: string }>).map((t) => t.id) : [];
  const keys: ModelKey[] = (Object.keys(SCOPES) as Array<keyof AccountKeys>)
    .filter((role) => account.keys[role])
    .map((role) => ({ value: account.keys[role] as string, scopes: SCOPES[role], status: role === 'revoked' ? 'revoked' : 'active', label: role }));
  const modelAccount: ModelAccount = {
    label: account.label, keys, balance: balance.balance, lifetimePurchased: balance.lifetimePurchased, lifetimeUsed: balance.lifetimeUsed,
    targets: [], builds: [], idempotency: new Map(), buildKeys: [], purchases: new Map(), purchaseKeys: [], ledger: [], baseline: { builds, transactions },
  };
  const slug = model.unique('t').toLowerCase().replace(/[^a-z0-9-]/g, '-').slice(-60);
  const target = await world.rest('createTarget', { key, body: { name: `Model target ${slug}`, slug, description: 'Created by the contract suite\'s model-based phase', brandKit: { voice: 'plain', tone: 'calm' } } });
  if (!target.ok) throw new ContractFailure(`${SETUP}\n    createTarget of account ${account.label}: got ${target.status} ${target.text.slice(0, 200)}`);
  modelAccount.targets.push(target.json.id);
  return modelAccount;
}

/** Revokes the keys a sequence made, so that the next one (on the same accounts) starts with the role keys alone. */
export async function retireKeys(model: ApiModel, world: World): Promise<void> {
  const trace = world.trace;
  world.trace = undefined;
  try {
    for (const account of model.accounts) {
      const rw = account.keys.find((k) => k.label === 'readWrite')?.value;
      for (const key of account.keys) {
        if (!key.id || key.status !== 'active') continue;
        await world.closeMcpSession(key.value);
        await world.rest('revokeApiKey', { key: rw, path: { keyId: key.id } }).catch(() => undefined);
      }
    }
  } finally {
    world.trace = trace;
  }
}
