import { bearerCredential } from '../auth/bearer.js';
import type { ExchangeFacts } from '../engine/engine-hooks.js';
import type { EngineRequest, EngineResponse } from '../engine/types.js';
import type { Account } from '../store/account.js';
import { AccountJudge } from './account-judge.js';
import type { Finding } from './findings.js';
import type { JudgedExchange } from './judged-exchange.js';
import { RULE_IDS, ruleBits, type RuleId } from './rules.js';

/** What the report of one account answers: `GET /_sim/accounts/{accountId}/client-report`. */
export interface ClientReportJson {
  accountId: string;
  /** Empty when the client kept every rule judged. */
  findings: Finding[];
  /** The rules not judged for this account: switched off for the whole simulator or for it. */
  rulesOff: RuleId[];
}

export interface ClientReportDeps {
  /** The account by id, as it is now (a reset or a restore makes new ones), without touching it. */
  account(id: string): Account | undefined;
  /** The account and credential of a revoked key, so its 401s count for the account that owned it. */
  revokedKeyOwner(presented: string): { accountId: string; credentialId: string } | undefined;
  /** Real time, ms (monotonic or wall: only differences are used), on the clock of the engine's `realAt` (performance.now()) when it gives one. */
  realNow(): number;
  /** Rules switched off for every account (`--client-rules`). */
  rulesOff?: readonly RuleId[];
}

/**
 * Judges how each account's client keeps the service's rules for clients, from the exchanges
 * the engine has already answered (one call per exchange, after its answer), and the MCP task
 * reads. Not part of the simulation's state: kept beside each account object, so a restore or
 * a reset of the simulator (new account objects) starts every report afresh, and never saved.
 */
export class ClientReport {
  private readonly judges = new WeakMap<Account, AccountJudge>();
  private readonly globalOff: ReadonlySet<RuleId>;
  private readonly globalOffBits: number;
  /** Every rule off: nothing is looked at, not even the account. */
  private readonly idle: boolean;
  private readonly scratch: JudgedExchange;
  /** The account judged last and its judge: a client's exchanges come in runs, and the next one skips the lookup. */
  private lastAccount: Account | undefined;
  private lastJudge: AccountJudge | undefined;

  constructor(private readonly deps: ClientReportDeps) {
    this.globalOff = new Set(deps.rulesOff ?? []);
    this.globalOffBits = ruleBits(this.globalOff);
    this.idle = RULE_IDS.every((rule) => this.globalOff.has(rule));
    this.scratch = { request: { method: '', url: '', headers: {} }, response: { status: 0, headers: {}, body: '' }, operationId: undefined, credential: '', via: 'rest', now: 0, real: 0, account: undefined as unknown as Account };
  }

  /** One exchange the engine answered. */
  observe(request: EngineRequest, response: EngineResponse, facts: ExchangeFacts): void {
    if (this.idle) return;
    let accountId = facts.accountId;
    let credential = facts.credentialId ?? facts.keyHint ?? '';
    if (accountId === undefined) {
      // Before authentication nothing is known of the caller, except a revoked key's former owner.
      if (response.status !== 401 || typeof response.body !== 'string' || !response.body.includes('"revoked"')) return;
      const presented = bearerCredential(request.headers.authorization);
      const owner = presented === null ? undefined : this.deps.revokedKeyOwner(presented);
      if (!owner) return;
      accountId = owner.accountId;
      credential = owner.credentialId;
    }
    // The engine hands the account it authenticated; another caller's facts name it only.
    const account = facts.account ?? this.deps.account(accountId);
    if (!account) return;
    const judge = this.judgeOf(account);
    if (!judge.looksAt(response.status, facts.operationId)) return;
    // An exchange with an account and no Authorization header came with an in-process caller: an MCP tool call.
    const via = request.headers.authorization === undefined ? 'mcp' : 'rest';
    // One exchange object, filled for each call: the judge reads it at once and keeps none of it.
    const x = this.scratch;
    x.request = request;
    x.response = response;
    x.operationId = facts.operationId;
    x.credential = credential;
    x.via = via;
    x.now = facts.now;
    x.real = facts.realAt ?? this.deps.realNow();
    x.account = account;
    judge.exchange(x);
  }

  /** A `tasks/get` answered for this account, at its clock's `now`, with the pollInterval it gave (while working). */
  taskPolled(account: Account, taskId: string, now: number, working: boolean, pollIntervalMs: number | undefined): void {
    if (this.globalOff.has('mcp-task-poll-too-fast')) return;
    this.judgeOf(account).taskPolled(taskId, now, working, pollIntervalMs);
  }

  /** The account's report, or undefined when there is no such account. */
  report(accountId: string): ClientReportJson | undefined {
    const account = this.deps.account(accountId);
    if (!account) return undefined;
    const judge = this.judges.get(account);
    const own = judge?.off ?? new Set<RuleId>();
    const off = (rule: RuleId) => this.globalOff.has(rule) || own.has(rule);
    return { accountId, findings: judge ? judge.findings.list(off) : [], rulesOff: RULE_IDS.filter(off) };
  }

  /** Switches rules off for one account (replacing its list); false when there is no such account. */
  setRulesOff(accountId: string, rules: readonly RuleId[]): boolean {
    const account = this.deps.account(accountId);
    if (!account) return false;
    this.judgeOf(account).off = new Set(rules);
    return true;
  }

  /** Forgets what the account's client did; `keepRules` keeps the rules it switched off (a new test on the same account). */
  clear(account: Account, keepRules = false): void {
    const off = this.judges.get(account)?.off;
    this.judges.delete(account);
    this.lastAccount = undefined;
    this.lastJudge = undefined;
    if (keepRules && off && off.size > 0) this.judgeOf(account).off = off;
  }

  private judgeOf(account: Account): AccountJudge {
    if (account === this.lastAccount) return this.lastJudge as AccountJudge;
    let judge = this.judges.get(account);
    if (!judge) {
      judge = new AccountJudge(this.deps.realNow, this.globalOffBits);
      this.judges.set(account, judge);
    }
    this.lastAccount = account;
    this.lastJudge = judge;
    return judge;
  }
}

/** Each simulator's report, kept beside its state (it is not part of it): the state object is the key. */
const reports = new WeakMap<object, ClientReport>();

export function registerClientReport(owner: object, report: ClientReport): void {
  reports.set(owner, report);
}

export function clientReportOf(owner: object): ClientReport {
  const report = reports.get(owner);
  if (!report) throw new Error('this simulator state has no client report registered');
  return report;
}
