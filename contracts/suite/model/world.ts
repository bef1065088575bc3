import { ContractFailure, SkipSignal } from '../../shared/outcomes.js';
import { fillPath, USER_LIMIT } from '../../shared/openapi-model.js';
import { ResponseRules, RULES } from '../../shared/response-rules.js';
import { CONTROL_RULE, headersOf } from '../../shared/server-time.js';
import type { Session } from '../session.js';
import { ModelMcpSessions } from './mcp-sessions.js';
import { toolAnswer } from './tool-answers.js';
import type { Trace } from './trace.js';
import type { Answer, Span } from './answer.js';

export type { Answer, Span } from './answer.js';

export interface RestCall {
  key?: string;
  path?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  headers?: Record<string, string>;
}

/** The keys of an account, by role (the simulator gives every role; a real service those configured). */
export interface AccountKeys {
  readWrite: string;
  readOnly?: string;
  writeOnly?: string;
  revoked?: string;
}

export interface WorldAccount {
  label: string;
  /** The simulator's account id, when the phase made the account. */
  accountId?: string;
  /** The script variable holding the account creation's answer. */
  variable?: string;
  keys: AccountKeys;
}

/** The sequence ran out of time (waiting out a real rate limit): not a failure of the server. */
export class OutOfTime extends Error {}

/**
 * The server as the model phase sees it: calls checked against every response rule of the
 * suite (openapi.yaml, error shape, rate-limit headers), recorded for a reproduction, and paced
 * so that no rate limit stops a sequence (on the simulator by moving the accounts' clocks,
 * which the model is told about; elsewhere by waiting).
 */
export class World {
  /** The accounts of the current sequence. */
  accounts: WorldAccount[] = [];
  trace: Trace | undefined;
  /** The simulator accounts the phase made, reused by every sequence. */
  private readonly pool: WorldAccount[] = [];
  /** The accounts' time (all their clocks move together), on the simulator: every move acknowledged. */
  private worldNow = 0;
  /** The accounts' time once the moves under way are acknowledged (concurrent calls wait for the same reset). */
  private scheduledNow = 0;
  /** The moves under way, one after another: the clocks move in the order the moves were asked for. */
  private moving: Promise<void> = Promise.resolve();
  private readonly windows = new Map<string, { remaining: number; reset: number }>();
  private readonly mcpSessions: ModelMcpSessions;
  private readonly rules: ResponseRules;
  private inParallel = false;

  constructor(
    readonly s: Session,
    private readonly deadline: number,
    private readonly simulatorClock: { nowMs: number; frozen: boolean; readAt: number },
  ) {
    const time = {
      toleranceMs: s.time.toleranceMs,
      // An answer that came while a clock move was under way was made before or after it: the
      // instant of that span nearest the one judged is the server's now, not the last acknowledged.
      nowNear: (instant: number, sentAt = this.worldNow) => {
        const candidates = this.controlled ? [Math.min(Math.max(instant, sentAt), this.scheduledNow), this.simulatorNow()] : [s.time.now()];
        return candidates.reduce((best, c) => (Math.abs(c - instant) < Math.abs(best - instant) ? c : best));
      },
    };
    this.rules = new ResponseRules(s.validator, time, s.level);
    this.mcpSessions = new ModelMcpSessions(s);
  }

  /** The suite makes the accounts and moves their clocks (a simulator whose accounts can have clocks of their own). */
  get controlled(): boolean {
    return this.s.control?.accountClocks === true;
  }

  now(): number {
    return this.controlled ? this.worldNow : this.s.time.now();
  }

  /** The times an answer to a call sent at `sentAt` may have been made at: until the end of the clock moves under way. */
  private answeredSince(sentAt: number): Span {
    return { from: sentAt, to: this.controlled ? this.scheduledNow : this.now() };
  }

  simulatorNow(): number {
    const c = this.simulatorClock;
    return c.frozen ? c.nowMs : c.nowMs + (Date.now() - c.readAt);
  }

  /**
   * A simulator account with keys of every role and a frozen clock of its own at the world's
   * time: made on first use, then put back to empty (`/_sim/accounts/{id}/reset`: its keys
   * and its clock stay) for each later sequence, so that a phase leaves two accounts behind,
   * not hundreds. The reproduction always makes a fresh one, which is the same thing.
   */
  async openAccount(label: string, balance: number, name: string): Promise<WorldAccount> {
    if (this.worldNow === 0) this.worldNow = this.scheduledNow = Math.floor(this.simulatorNow());
    const body = { name, balance, clock: { frozenAt: new Date(this.worldNow).toISOString() } };
    const variable = `account${label}`;
    this.trace?.add({ kind: 'account', variable, body });
    let account = this.pool.find((a) => a.label === label);
    if (account) await this.control(`/_sim/accounts/${account.accountId}/reset`, {}, 200);
    else {
      const reply = await this.control('/_sim/accounts', body, 201);
      account = { label, accountId: reply.accountId as string, variable, keys: reply.keys as AccountKeys };
      this.pool.push(account);
    }
    for (const [role, key] of Object.entries(account.keys)) this.trace?.bind(key, `${variable}.keys.${role}`);
    this.trace?.bind(account.accountId, `${variable}.accountId`);
    this.accounts.push(account);
    return account;
  }

  /** Moves every account's clock by `ms` (the simulator only), after the moves already under way. */
  async advance(ms: number): Promise<void> {
    if (!this.controlled) throw new Error('no clock to move');
    this.scheduledNow += ms;
    const move = this.moving.then(async () => {
      this.trace?.add({ kind: 'advance', accounts: this.accounts.map((a) => a.variable as string), ms });
      for (const account of this.accounts) await this.control(`/_sim/accounts/${account.accountId}/clock/advance`, { ms }, 200);
      this.worldNow += ms;
    });
    this.moving = move.catch(() => undefined);
    await move;
  }

  /**
   * Lets the accounts' time reach `instant`: calls sent at once that wait for the same reset share
   * one move (each moving the clocks by its own wait would move them by the sum).
   */
  private async reach(instant: number): Promise<void> {
    if (instant > this.scheduledNow) return this.advance(Math.ceil(instant - this.scheduledNow));
    await this.moving;
  }

  async rest(operationId: string, call: RestCall = {}): Promise<Answer> {
    const op = this.s.client.operation(operationId);
    const path = fillPath(op, call.path ?? {});
    const url = call.query && Object.keys(call.query).length ? `${path}?${new URLSearchParams(call.query)}` : path;
    for (let attempt = 0; ; attempt++) {
      await this.pace(call.key, op.rateClass);
      const headers: Record<string, string> = { accept: 'application/json', ...call.headers };
      if (call.key) headers.authorization = `Bearer ${call.key}`;
      if (call.body !== undefined) headers['content-type'] = 'application/json';
      const variable = this.trace?.nextVariable() ?? 'r';
      const sentAt = this.now();
      let response: Response;
      let text: string;
      try {
        response = await this.s.client.raw(url, { method: op.method, headers, body: call.body === undefined ? undefined : JSON.stringify(call.body) });
        text = await response.text();
      } catch (e) {
        if (e instanceof SkipSignal) throw e;
        throw new ContractFailure(`${RULES.answers}\n    ${op.method} ${url}: ${String((e as Error).cause ?? (e as Error).message)}`);
      }
      const responseHeaders = headersOf(response);
      this.trace?.add({ kind: 'rest', variable, method: op.method, path: url, key: call.key, headers: call.headers, body: call.body, status: response.status });
      if (this.inParallel && call.key) this.rules.forget(call.key); // answers of calls sent at once may arrive in any order
      const within = this.answeredSince(sentAt);
      const broken = this.rules.inspect({ method: op.method, url, status: response.status, headers: responseHeaders, text, operation: op, key: call.key, sentAt });
      if (broken.length) throw new ContractFailure(broken.join('\n'));
      this.remember(call.key, op.rateClass, response.status, responseHeaders);
      let json: any;
      try {
        json = text ? JSON.parse(text) : undefined;
      } catch {
        json = undefined;
      }
      if (response.status === 429 && attempt < 3) {
        await this.waitSeconds(Number(responseHeaders['retry-after']) || 60, within.from);
        continue;
      }
      const answer: Answer = { via: 'rest', status: response.status, ok: response.status < 400, json, code: response.status >= 400 ? json?.code : undefined, text, headers: responseHeaders, within };
      this.bindIds(answer, variable);
      return answer;
    }
  }

  /**
   * A tool call over MCP (a session per key, opened on first use). A credential refused at the
   * HTTP level (401, 403) is an answer too: its status, with the error body it carries.
   */
  async mcp(key: string, tool: string, args: Record<string, unknown>): Promise<Answer> {
    for (let attempt = 0; ; attempt++) {
      const variable = this.trace?.nextVariable() ?? 'r';
      const session = await this.mcpSessions.open(key);
      const sentAt = this.now();
      const reply = 'refused' in session ? session.refused : await this.mcpSessions.rpc(key, session.id, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: tool, arguments: args } });
      this.rules.forget(key); // the call moved the key's window where the REST rules do not look
      const within = this.answeredSince(sentAt);
      const answer = toolAnswer(tool, reply, within);
      this.trace?.add({ kind: 'mcp', variable, key, tool, args, outcome: answer.ok ? 'a result' : `${answer.status ?? 'isError'} ${answer.code}` });
      if (answer.status !== undefined) this.mcpSessions.drop(key); // a refused credential's session is over
      if (answer.code === 'RATE_LIMITED' && attempt < 3) {
        await this.waitSeconds(Number(answer.json?.details?.retryAfterSeconds) || 60, within.from);
        continue;
      }
      this.bindIds(answer, variable);
      return answer;
    }
  }

  /** Calls sent at once. */
  async parallel<T>(calls: Array<() => Promise<T>>, keys: string[]): Promise<T[]> {
    // Every call settles before the first failure is thrown: none outlives its sequence, to be
    // answered (and counted in a window) during the next one.
    const run = async () => {
      const settled = await Promise.allSettled(calls.map((c) => c()));
      const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) throw failed.reason;
      return settled.map((r) => (r as PromiseFulfilledResult<T>).value);
    };
    this.inParallel = true;
    try {
      return await (this.trace ? this.trace.parallel(run) : run());
    } finally {
      this.inParallel = false;
      for (const key of keys) this.rules.forget(key);
    }
  }

  private bindIds(answer: Answer, variable: string): void {
    const j = answer.json;
    if (!this.trace || !answer.ok || !j || typeof j !== 'object') return;
    for (const field of ['id', 'buildId', 'value']) if (typeof j[field] === 'string') this.trace.bind(j[field], `${variable}.${field}`);
    if (typeof j.transaction?.id === 'string') this.trace.bind(j.transaction.id, `${variable}.transaction.id`);
  }

  /** Ends the MCP session opened for `key`: before the key is revoked, after which the server refuses the DELETE. */
  closeMcpSession(key: string): Promise<void> {
    return this.mcpSessions.close(key);
  }

  private async pace(key: string | undefined, rateClass: string): Promise<void> {
    if (!key) return;
    for (const name of [`${key}|${rateClass}`, `user|${this.accountOf(key)}`]) {
      const w = this.windows.get(name);
      if (w && w.remaining <= 0 && w.reset * 1000 > this.now()) await this.waitUntil(w.reset * 1000);
    }
  }

  private remember(key: string | undefined, rateClass: string, status: number, headers: Record<string, string>): void {
    const remaining = Number(headers['x-ratelimit-remaining']);
    const reset = Number(headers['x-ratelimit-reset']);
    const limit = Number(headers['x-ratelimit-limit']);
    if (!key || status === 401 || !Number.isFinite(remaining) || !Number.isFinite(reset)) return;
    const window = { remaining: status === 429 ? 0 : remaining, reset };
    this.windows.set(limit === USER_LIMIT ? `user|${this.accountOf(key)}` : `${key}|${rateClass}`, window);
  }

  private accountOf(key: string): string {
    return this.accounts.find((a) => Object.values(a.keys).includes(key))?.label ?? key;
  }

  /** Waits `seconds` (a Retry-After) counted from the accounts' time `from` (when the refused call was sent). */
  private waitSeconds(seconds: number, from: number): Promise<void> {
    const ms = Math.max(1, seconds) * 1000;
    return this.controlled ? this.waitUntil(from + ms) : this.waitMs(ms);
  }

  /** Waits until an instant of the accounts' time (a window's reset). */
  private waitUntil(instant: number): Promise<void> {
    return this.controlled ? this.reach(instant) : this.waitMs(instant - this.now());
  }

  private async waitMs(ms: number): Promise<void> {
    if (ms <= 0) return;
    if (Date.now() + ms > this.deadline) throw new OutOfTime(`a rate-limit wait of ${Math.ceil(ms / 1000)} s would pass the model phase's time budget`);
    await new Promise((resolve) => setTimeout(resolve, ms));
  }

  private async control(path: string, body: unknown, expected: number): Promise<any> {
    const token = process.env.CONTRACT_CONTROL_TOKEN;
    const headers: Record<string, string> = { 'content-type': 'application/json', ...(token ? { 'x-control-token': token } : {}) };
    const response = await this.s.client.raw(path, { method: 'POST', headers, body: JSON.stringify(body) });
    const text = await response.text();
    const broken = this.s.validator.validate({ method: 'POST', url: path, status: response.status, headers: headersOf(response), body: text });
    if (response.status !== expected || broken.length) {
      throw new ContractFailure(`${CONTROL_RULE}\n    POST ${path} → ${response.status}: ${broken.map((v) => v.message).join('; ') || text.slice(0, 200)}`);
    }
    return JSON.parse(text);
  }
}
