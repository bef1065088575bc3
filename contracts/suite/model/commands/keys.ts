import type { ApiModel, ModelKey } from '../model.js';
import type { World } from '../world.js';
import { expectBalance, expectOk, expectRefused, fail, keyOf, pick, seen, type ModelCommand, type Via } from './common.js';

const CREATE = 'openapi.yaml: POST /api/v1/keys answers 201 with a new svc_live_ value and the scopes asked (409 CONFLICT beyond 25 active keys)';
const ROTATE = 'openapi.yaml: rotating a key answers a new value with the same name and scopes and revokes the old one at once; rotating a revoked key is 409 CONFLICT';
const REVOKE = 'openapi.yaml: revoking a key answers it revoked, at once and again (idempotent)';
const USE = 'Authentication 2, 4, 5; openapi.yaml: a key works with the scopes it holds until it is revoked or rotated; then 401 INVALID_API_KEY; a scope it lacks is 403 SCOPE_REQUIRED';
const MAX_ACTIVE = 25;
const SCOPE_SETS = [['svc:read'], ['svc:write'], ['svc:read', 'svc:write']];

function created(model: ApiModel, account: string): ModelKey[] {
  return model.account(account).keys.filter((k) => k.id !== undefined);
}

export class CreateKey implements ModelCommand {
  constructor(
    readonly account: string,
    readonly scopes: number,
  ) {}

  check(): boolean {
    return true;
  }

  async run(model: ApiModel, world: World): Promise<void> {
    const account = model.account(this.account);
    const scopes = SCOPE_SETS[this.scopes % SCOPE_SETS.length] as string[];
    const name = `Model key ${model.unique('n')}`;
    const a = await world.rest('createApiKey', { key: keyOf(model, account, 'readWrite'), body: { name, scopes } });
    if (account.keys.filter((k) => k.status === 'active').length >= MAX_ACTIVE) return expectRefused(model, a, { status: 409, code: 'CONFLICT' }, {}, CREATE);
    expectOk(model, a, 201, CREATE);
    if (!/^svc_live_[0-9a-f]{40}$/.test(String(a.json?.value)) || JSON.stringify(a.json?.scopes) !== JSON.stringify(scopes) || a.json?.status !== 'active') fail(CREATE, seen(a));
    account.keys.push({ value: a.json.value, id: a.json.id, name, scopes, status: 'active', label: `key${account.keys.length}` });
  }

  toString(): string {
    return `createApiKey(${this.account}, ${JSON.stringify(SCOPE_SETS[this.scopes % SCOPE_SETS.length])})`;
  }
}

export class RotateKey implements ModelCommand {
  constructor(
    readonly account: string,
    readonly key: number,
  ) {}

  check(model: ApiModel): boolean {
    return created(model, this.account).length > 0;
  }

  async run(model: ApiModel, world: World): Promise<void> {
    const account = model.account(this.account);
    const old = pick(created(model, this.account), this.key) as ModelKey;
    const a = await world.rest('rotateApiKey', { key: keyOf(model, account, 'readWrite'), path: { keyId: old.id as string } });
    if (old.status === 'revoked') return expectRefused(model, a, { status: 409, code: 'CONFLICT' }, {}, ROTATE);
    expectOk(model, a, 201, ROTATE);
    const j = a.json ?? {};
    if (j.value === old.value || j.name !== old.name || JSON.stringify(j.scopes) !== JSON.stringify(old.scopes) || j.rotatedFromId !== old.id) fail(ROTATE, seen(a));
    old.status = 'revoked';
    account.keys.push({ value: j.value, id: j.id, name: old.name, scopes: old.scopes, status: 'active', label: `key${account.keys.length}` });
  }

  toString(): string {
    return `rotateApiKey(${this.account}'s key #${this.key})`;
  }
}

export class RevokeKey implements ModelCommand {
  constructor(
    readonly account: string,
    readonly key: number,
  ) {}

  check(model: ApiModel): boolean {
    return created(model, this.account).length > 0;
  }

  async run(model: ApiModel, world: World): Promise<void> {
    const account = model.account(this.account);
    const key = pick(created(model, this.account), this.key) as ModelKey;
    const a = await world.rest('revokeApiKey', { key: keyOf(model, account, 'readWrite'), path: { keyId: key.id as string } });
    expectOk(model, a, 200, REVOKE);
    if (a.json?.id !== key.id || a.json?.status !== 'revoked') fail(REVOKE, seen(a));
    key.status = 'revoked';
  }

  toString(): string {
    return `revokeApiKey(${this.account}'s key #${this.key})`;
  }
}

/** Any key of the account (its role keys and those the sequence made) reads the balance or creates a target. */
export class UseKey implements ModelCommand {
  constructor(
    readonly account: string,
    readonly key: number,
    readonly write: boolean,
    readonly via: Via,
  ) {}

  check(): boolean {
    return true;
  }

  async run(model: ApiModel, world: World): Promise<void> {
    const account = model.account(this.account);
    // The keys the sequence made come first, so that a shrunk choice lands on one of them.
    const key = pick([...created(model, this.account), ...account.keys.filter((k) => k.id === undefined)], this.key) as ModelKey;
    const needs = this.write ? 'svc:write' : 'svc:read';
    const slug = model.unique('u').toLowerCase().replace(/[^a-z0-9-]/g, '-').slice(-60);
    const body = { name: `Model target ${slug}`, slug, description: 'Made with a key of the sequence', brandKit: { voice: 'plain', tone: 'calm' } };
    const [operation, args] = this.write ? (['createTarget', body] as const) : (['getTokenBalance', {}] as const);
    const a = this.via === 'mcp' ? await world.mcp(key.value, operation, args) : await world.rest(operation, { key: key.value, body: this.write ? body : undefined });
    if (key.status === 'revoked') return expectRefused(model, a, { status: 401, code: 'INVALID_API_KEY' }, { status: 401 }, `${USE} (${key.label}, revoked)`);
    if (!key.scopes.includes(needs)) return expectRefused(model, a, { status: 403, code: 'SCOPE_REQUIRED' }, { status: 403 }, `${USE} (${key.label}, scopes ${key.scopes.join(' ')})`);
    expectOk(model, a, this.write ? 201 : 200, `${USE} (${key.label})`);
    if (this.write) account.targets.push(a.json.id);
    else expectBalance(model, account, a.json, `getTokenBalance with ${key.label}`);
  }

  toString(): string {
    return `${this.write ? 'createTarget' : 'getTokenBalance'}(${this.account}, with its key #${this.key}${this.via === 'mcp' ? ', over MCP' : ''})`;
  }
}
