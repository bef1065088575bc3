import type fc from 'fast-check';
import { ContractFailure } from '../../../shared/outcomes.js';
import type { ApiModel, ModelAccount } from '../model.js';
import type { Answer, World } from '../world.js';

export type ModelCommand = fc.AsyncCommand<ApiModel, World>;

/** Through which door a call goes: the REST operation, or its MCP tool (strict). */
export type Via = 'rest' | 'mcp';

/** Whose credential a call carries. */
export type As = 'readWrite' | 'readOnly' | 'writeOnly' | 'revoked' | 'other';

export function fail(rule: string, detail: string): never {
  throw new ContractFailure(`${rule}\n    ${detail}`);
}

export function seen(a: Answer): string {
  return `${a.status === undefined ? 'the tool answered' : `got ${a.via === 'mcp' ? 'HTTP ' : ''}${a.status}`} ${a.text.slice(0, 300)}`;
}

/** A success; at the strict level over REST, with openapi.yaml's exact status. */
export function expectOk(model: ApiModel, a: Answer, strictStatus: number, rule: string): void {
  if (!a.ok) fail(rule, `expected a success, ${seen(a)}`);
  if (model.strict && a.via === 'rest' && a.status !== strictStatus) fail(`${rule} (openapi.yaml: ${strictStatus})`, `expected ${strictStatus}, ${seen(a)}`);
}

/**
 * A refusal. `documented`: what the spec states of it (a status, or only a 4xx class); the
 * strict level holds it to openapi.yaml's status and code.
 */
export function expectRefused(model: ApiModel, a: Answer, strict: { status: number; code: string }, documented: { status?: number; codes?: string[] }, rule: string): void {
  if (a.ok) fail(rule, `expected a refusal (${strict.status} ${strict.code}), ${seen(a)}`);
  if (model.strict) {
    if (a.code !== strict.code || (a.status !== undefined && a.status !== strict.status)) fail(rule, `expected ${strict.status} ${strict.code}, ${seen(a)}`);
    return;
  }
  if (a.status !== undefined && documented.status !== undefined && a.status !== documented.status) fail(rule, `expected ${documented.status}, ${seen(a)}`);
  if (a.status !== undefined && documented.status === undefined && (a.status < 400 || a.status >= 500)) fail(rule, `expected a 4xx refusal, ${seen(a)}`);
  if (documented.codes && !documented.codes.includes(a.code ?? '')) fail(rule, `expected ${documented.codes.join(' or ')}, ${seen(a)}`);
}

/** The key a role stands for, or undefined when the run has none (the command is then left out). */
export function keyOf(model: ApiModel, account: ModelAccount, as: As): string | undefined {
  if (as === 'other') return model.other(account)?.keys.find((k) => k.label === 'readWrite')?.value;
  return model.key(account, as)?.value;
}

/** What a key may not do: refused as revoked (401), without the scope (403), or as another account's (404). */
export function refusalFor(as: As, needs: 'svc:read' | 'svc:write'): 'revoked' | 'scope' | 'foreign' | undefined {
  if (as === 'revoked') return 'revoked';
  if (as === 'other') return 'foreign';
  if ((as === 'readOnly' && needs === 'svc:write') || (as === 'writeOnly' && needs === 'svc:read')) return 'scope';
  return undefined;
}

export const RULES = {
  revoked: 'Authentication 4: a revoked key gets 401 (INVALID_API_KEY)',
  scope: 'Authentication 5: a key lacking the scope the endpoint requires gets 403 SCOPE_REQUIRED',
  foreign: 'Authentication, isolation: a key reaches only its own account (openapi.yaml, strict: 404 NOT_FOUND)',
};

/** Checks the refusal a key's role earns. */
export function expectRoleRefusal(model: ApiModel, a: Answer, refusal: 'revoked' | 'scope' | 'foreign'): void {
  if (refusal === 'revoked') expectRefused(model, a, { status: 401, code: 'INVALID_API_KEY' }, { status: 401, codes: ['UNAUTHORIZED', 'INVALID_API_KEY'] }, RULES.revoked);
  else if (refusal === 'scope') expectRefused(model, a, { status: 403, code: 'SCOPE_REQUIRED' }, { status: 403, codes: ['SCOPE_REQUIRED'] }, RULES.scope);
  else expectRefused(model, a, { status: 404, code: 'NOT_FOUND' }, {}, RULES.foreign);
}

/** Picks the n-th of a list, wrapping around (shrinking keeps the choice meaningful). */
export function pick<T>(list: readonly T[], n: number): T | undefined {
  return list.length ? list[n % list.length] : undefined;
}

const BALANCE_RULE = 'Resources, Token balance; Endpoints rules 2 and 4: the balance falls by each charged build\'s cost and by nothing else (a replay charges nothing), lifetimeUsed rises by it, lifetimePurchased by each purchase';

/** Checks a balance object against the model, learning which pending refunds it shows. */
export function expectBalance(model: ApiModel, account: ModelAccount, body: any, where: string): void {
  model.settle(account);
  const { balance, lifetimePurchased, lifetimeUsed } = body ?? {};
  const expected = { balance: account.balance, lifetimePurchased: account.lifetimePurchased, lifetimeUsed: account.lifetimeUsed };
  const detail = `${where}: the model expects ${JSON.stringify(expected)}${model.pending(account).length ? ` (plus the refunds of ${model.pending(account).length} failing build(s), if booked)` : ''}, got ${JSON.stringify({ balance, lifetimePurchased, lifetimeUsed })}`;
  if (lifetimePurchased !== account.lifetimePurchased) fail(BALANCE_RULE, detail);
  // A refund gives back to the balance exactly what it takes from lifetimeUsed ("net of refunds").
  // (openapi.yaml; the spec says nothing of refunds, so the documented level checks it only with none pending.)
  if ((model.strict || !model.pending(account).length) && balance + lifetimeUsed !== account.balance + account.lifetimeUsed) fail(BALANCE_RULE, detail);
  if (!model.learnRefunds(account, balance - account.balance)) fail(BALANCE_RULE, detail);
}
