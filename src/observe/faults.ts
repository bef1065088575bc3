import type { FaultCall as EngineFaultCall } from '../engine/engine-hooks.js';
import { ApiError, validationError } from '../errors/api-error.js';
import type { Operation } from '../contract/operations.js';
import { Rng } from '../random/rng.js';
import { injectedError, injectionProblem, type InjectedResponse } from './injected-errors.js';

export interface FaultRuleInput {
  /** Only calls of this account (from `POST /_sim/accounts`); none: every account. */
  accountId?: string;
  operationId?: string;
  /** Only paths that start with this. */
  path?: string;
  method?: string;
  /** Only calls with this key (its hint, `svc_live_…abcd`). */
  keyHint?: string;
  /** Answer this documented error instead of the operation. */
  response?: InjectedResponse;
  /** Wait this long before answering: fixed, or drawn (seeded) between min and max. */
  latencyMs?: number | { min: number; max: number };
  /** Close the connection without an answer. */
  drop?: boolean;
  /** Send the status and headers at once, then the body in `chunks` pieces spread over `totalMs` (WireMock's dribble). */
  slowBody?: SlowBody;
  /** For the next `times` matching calls only. */
  times?: number;
  /** Each matching call is hit with this probability, drawn from the seed. */
  probability?: number;
  /** Until this virtual instant (ms). */
  untilMs?: number;
}

export interface FaultRule extends FaultRuleInput {
  id: string;
  createdAt: number;
  /** Matching calls hit so far. */
  hits: number;
}

export interface SlowBody {
  totalMs: number;
  chunks?: number;
}

/** What a matched rule does to one call: a reply instead of the operation's, and/or a delay or a dropped connection. */
export interface FaultDecision {
  ruleId: string;
  error?: ApiError;
  delayMs?: number;
  drop?: boolean;
  slowBody?: Required<SlowBody>;
}

/** The call a rule is matched against: the engine's, less the Prefer header rules do not read. */
export type FaultCall = Omit<EngineFaultCall, 'prefer'>;

/** Rules one account may hold at once (rules for every account are held like one more account's). */
export const MAX_FAULT_RULES_PER_ACCOUNT = 100;
/** Rules the simulator holds at once: each call is tried against its account's rules and the shared ones. */
export const MAX_FAULT_RULES = 1000;
/** The list of the rules that name no account. */
const EVERY_ACCOUNT = '*';

/** A rule and its place in the order of creation, which decides between an account's rules and the shared ones. */
interface Held {
  seq: number;
  rule: FaultRule;
}

/**
 * Fault rules: make the simulator misbehave on purpose, deterministically for a seed, so a
 * client's retry and timeout code can be tested with HTTP calls alone. The first live rule
 * that matches a call decides; rules run out by count or virtual time, and are scoped to an
 * account so that parallel jobs never see each other's faults. Rules are kept per account,
 * so a call is tried only against its own account's rules and the shared ones, and both
 * lists are capped: however many rules one job adds, another's calls cost the same.
 */
export class FaultRules {
  private readonly byAccount = new Map<string, Held[]>();
  private total = 0;
  private count = 0;
  private readonly rng: Rng;

  constructor(seed: string, private readonly operations: Operation[]) {
    this.rng = new Rng(seed, 'faults');
  }

  /** Rules held for one account now (expired ones may still count until the next prune). */
  heldBy(accountId: string): number {
    return this.byAccount.get(accountId)?.length ?? 0;
  }

  add(input: FaultRuleInput, now: number): FaultRule {
    this.check(input);
    const scope = input.accountId ?? EVERY_ACCOUNT;
    // Rules that ran out hold no room.
    this.prune(scope, now);
    if ((this.byAccount.get(scope)?.length ?? 0) >= MAX_FAULT_RULES_PER_ACCOUNT) {
      throw listFull(MAX_FAULT_RULES_PER_ACCOUNT, input.accountId === undefined ? 'every account' : `account ${input.accountId}`, input.accountId);
    }
    if (this.total >= MAX_FAULT_RULES) {
      for (const other of [...this.byAccount.keys()]) this.prune(other, now);
      if (this.total >= MAX_FAULT_RULES) throw listFull(MAX_FAULT_RULES, 'the whole simulator');
    }
    const held = this.byAccount.get(scope) ?? [];
    const rule: FaultRule = { ...input, id: `fault_${++this.count}`, createdAt: now, hits: 0 };
    held.push({ seq: this.count, rule });
    this.byAccount.set(scope, held);
    this.total++;
    return rule;
  }

  /** The live rules, oldest first: one that has run out (by count or by `now`) is no longer listed. */
  list(accountId?: string, now?: number): FaultRule[] {
    const held = accountId === undefined ? [...this.byAccount.values()].flat().sort((a, b) => a.seq - b.seq) : (this.byAccount.get(accountId) ?? []);
    return held.map((h) => h.rule).filter((r) => live(r, now));
  }

  remove(id: string): boolean {
    for (const [scope, held] of this.byAccount) {
      const at = held.findIndex((h) => h.rule.id === id);
      if (at === -1) continue;
      held.splice(at, 1);
      this.total--;
      if (held.length === 0) this.byAccount.delete(scope);
      return true;
    }
    return false;
  }

  clear(accountId?: string): void {
    if (accountId === undefined) {
      this.byAccount.clear();
      this.total = 0;
      return;
    }
    this.total -= this.byAccount.get(accountId)?.length ?? 0;
    this.byAccount.delete(accountId);
  }

  match(call: FaultCall): FaultDecision | undefined {
    const own = this.byAccount.get(call.accountId) ?? NONE;
    const shared = this.byAccount.get(EVERY_ACCOUNT) ?? NONE;
    let decision: FaultDecision | undefined;
    let expired = false;
    // The two lists, merged in order of creation: the oldest live rule that matches decides.
    for (let i = 0, j = 0; !decision && (i < own.length || j < shared.length);) {
      const takeOwn = j >= shared.length || (i < own.length && (own[i] as Held).seq < (shared[j] as Held).seq);
      const { rule } = (takeOwn ? own[i++] : shared[j++]) as Held;
      if (!live(rule, call.now)) {
        expired = true;
        continue;
      }
      if (!matches(rule, call)) continue;
      if (rule.probability !== undefined && !this.rng.bool(rule.probability)) continue;
      rule.hits++;
      decision = this.decide(rule, call);
    }
    if (expired) {
      this.prune(call.accountId, call.now);
      this.prune(EVERY_ACCOUNT, call.now);
    }
    return decision;
  }

  /** Forgets the rules of one list that have run out. */
  private prune(scope: string, now: number): void {
    const held = this.byAccount.get(scope);
    if (!held) return;
    const kept = held.filter((h) => live(h.rule, now));
    this.total -= held.length - kept.length;
    if (kept.length === 0) this.byAccount.delete(scope);
    else this.byAccount.set(scope, kept);
  }

  private decide(rule: FaultRule, call: FaultCall): FaultDecision {
    const decision: FaultDecision = { ruleId: rule.id };
    if (rule.drop) decision.drop = true;
    if (rule.latencyMs !== undefined) {
      decision.delayMs = typeof rule.latencyMs === 'number' ? rule.latencyMs : this.rng.int(rule.latencyMs.min, rule.latencyMs.max);
    }
    if (rule.slowBody) decision.slowBody = { totalMs: rule.slowBody.totalMs, chunks: rule.slowBody.chunks ?? 10 };
    if (rule.response) decision.error = injectedError(rule.response, call.operation, call.now);
    return decision;
  }

  /** A rule must be able to happen, and must answer only what the contract documents. */
  private check(input: FaultRuleInput): void {
    if (!input.response && input.latencyMs === undefined && !input.drop && !input.slowBody) {
      throw validationError([{ path: 'body', message: 'says nothing to do: give a response, latencyMs, slowBody or drop' }]);
    }
    const ops = this.operations.filter((o) => input.operationId === undefined || o.operationId === input.operationId);
    if (ops.length === 0) throw validationError([{ path: 'body.operationId', message: `is no operation of openapi.yaml: ${input.operationId}` }]);
    // The operations the rule can reach: an error must be one each of them documents.
    const reached = ops.filter((o) => (input.method === undefined || o.method === input.method.toUpperCase()) && (input.path === undefined || pathCanMatch(o.template, input.path)));
    const problem = input.response && injectionProblem(input.response, reached);
    if (problem) throw validationError([{ path: `body.response.${problem.path}`, message: problem.message }]);
    if (typeof input.latencyMs === 'object' && input.latencyMs.min > input.latencyMs.max) {
      throw validationError([{ path: 'body.latencyMs', message: 'min is above max' }]);
    }
  }
}

/** Whether some path of `template` starts with `prefix` (a `{param}` segment stands for any value). */
function pathCanMatch(template: string, prefix: string): boolean {
  const want = template.split('/');
  const have = prefix.split('/');
  if (have.length > want.length) return false;
  return have.every((segment, i) => {
    const expected = want[i] as string;
    if (expected.startsWith('{')) return true;
    return i === have.length - 1 ? expected.startsWith(segment) : expected === segment;
  });
}

const NONE: readonly Held[] = [];

function listFull(limit: number, whose: string, accountId?: string): ApiError {
  return new ApiError(409, 'CONFLICT', `The fault-rule list is full: ${limit} live rules for ${whose}. Delete rules (DELETE /_sim/faults/{faultId}, or DELETE /_sim/faults?accountId=…) before adding more.`, {
    limit,
    ...(accountId === undefined ? {} : { accountId }),
  });
}

function live(rule: FaultRule, now: number | undefined): boolean {
  return (rule.times === undefined || rule.hits < rule.times) && (rule.untilMs === undefined || now === undefined || now < rule.untilMs);
}

function matches(rule: FaultRule, call: FaultCall): boolean {
  return (rule.accountId === undefined || rule.accountId === call.accountId)
    && (rule.operationId === undefined || rule.operationId === call.operation.operationId)
    && (rule.path === undefined || call.path.startsWith(rule.path))
    && (rule.method === undefined || rule.method.toUpperCase() === call.method)
    && (rule.keyHint === undefined || rule.keyHint === call.keyHint);
}

/**
 * `Prefer: code=503`, `Prefer: delay=800` or `Prefer: drop` (Prism's header, as users know it):
 * a one-off fault for the call that carries it, from a browser or curl.
 */
export function preferredFault(prefer: string | undefined, operation: Operation, now: number): FaultDecision | undefined {
  if (!prefer) return undefined;
  const decision: FaultDecision = { ruleId: 'prefer' };
  for (const part of prefer.split(/[,;]/)) {
    const [name, value] = part.trim().split('=').map((s) => s.trim());
    if (name === 'code') {
      const response = { status: Number(value) };
      const problem = injectionProblem(response, [operation]);
      if (problem) throw validationError([{ path: 'header.Prefer', message: `code=${value}: ${problem.message}` }]);
      decision.error = injectedError(response, operation, now);
    } else if (name === 'delay') {
      const ms = Number(value);
      if (!Number.isInteger(ms) || ms < 0 || ms > 60_000) throw validationError([{ path: 'header.Prefer', message: `delay=${value}: give 0 to 60000 ms` }]);
      decision.delayMs = ms;
    } else if (name === 'drop') {
      decision.drop = true;
    }
  }
  return decision.error || decision.delayMs !== undefined || decision.drop ? decision : undefined;
}
