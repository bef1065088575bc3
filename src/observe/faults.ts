import { ApiError, validationError } from '../engine/api-error.js';
import type { Operation } from '../contract/operations.js';
import { Rng } from '../random/rng.js';

/** The statuses a fault may answer, each with the error code and details the contract asks of it. */
export const INJECTABLE_STATUSES = [429, 500, 503] as const;

export interface FaultRuleInput {
  /** Only calls of this account (from `POST /_sim/accounts`); none: every account. */
  accountId?: string;
  operationId?: string;
  /** Only paths that start with this. */
  path?: string;
  method?: string;
  /** Only calls with this key (its hint, `svc_live_…abcd`). */
  keyHint?: string;
  /** Answer this instead of the operation. */
  response?: { status: number; message?: string; retryAfterSeconds?: number };
  /** Wait this long before answering: fixed, or drawn (seeded) between min and max. */
  latencyMs?: number | { min: number; max: number };
  /** Close the connection without an answer. */
  drop?: boolean;
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

/** What a matched rule does to one call: a reply instead of the operation's, and/or a delay or a dropped connection. */
export interface FaultDecision {
  ruleId: string;
  error?: ApiError;
  delayMs?: number;
  drop?: boolean;
}

export interface FaultCall {
  operation: Operation;
  method: string;
  path: string;
  accountId: string;
  keyHint: string;
  now: number;
}

/**
 * Fault rules: make the simulator misbehave on purpose, deterministically for a seed, so a
 * client's retry and timeout code can be tested with HTTP calls alone. The first live rule
 * that matches a call decides; rules run out by count or virtual time, and are scoped to an
 * account so that parallel jobs never see each other's faults.
 */
export class FaultRules {
  private rules: FaultRule[] = [];
  private count = 0;
  private readonly rng: Rng;

  constructor(seed: string, private readonly operations: Operation[]) {
    this.rng = new Rng(seed, 'faults');
  }

  add(input: FaultRuleInput, now: number): FaultRule {
    this.check(input);
    const rule: FaultRule = { ...input, id: `fault_${++this.count}`, createdAt: now, hits: 0 };
    this.rules.push(rule);
    return rule;
  }

  list(accountId?: string): FaultRule[] {
    return this.rules.filter((r) => accountId === undefined || r.accountId === accountId);
  }

  remove(id: string): boolean {
    const before = this.rules.length;
    this.rules = this.rules.filter((r) => r.id !== id);
    return this.rules.length < before;
  }

  clear(accountId?: string): void {
    this.rules = accountId === undefined ? [] : this.rules.filter((r) => r.accountId !== accountId);
  }

  match(call: FaultCall): FaultDecision | undefined {
    this.rules = this.rules.filter((r) => (r.times === undefined || r.hits < r.times) && (r.untilMs === undefined || call.now < r.untilMs));
    for (const rule of this.rules) {
      if (!matches(rule, call)) continue;
      if (rule.probability !== undefined && !this.rng.bool(rule.probability)) continue;
      rule.hits++;
      return this.decide(rule, call);
    }
    return undefined;
  }

  private decide(rule: FaultRule, call: FaultCall): FaultDecision {
    const decision: FaultDecision = { ruleId: rule.id };
    if (rule.drop) decision.drop = true;
    if (rule.latencyMs !== undefined) {
      decision.delayMs = typeof rule.latencyMs === 'number' ? rule.latencyMs : this.rng.int(rule.latencyMs.min, rule.latencyMs.max);
    }
    if (rule.response) decision.error = injectedError(rule.response, call.now);
    return decision;
  }

  /** A rule must be able to happen, and must answer only what the contract documents. */
  private check(input: FaultRuleInput): void {
    if (!input.response && input.latencyMs === undefined && !input.drop) {
      throw validationError([{ path: 'body', message: 'says nothing to do: give a response, latencyMs or drop' }]);
    }
    const ops = input.operationId === undefined ? this.operations : this.operations.filter((o) => o.operationId === input.operationId);
    if (ops.length === 0) throw validationError([{ path: 'body.operationId', message: `is no operation of openapi.yaml: ${input.operationId}` }]);
    const status = input.response?.status;
    if (status !== undefined && !(INJECTABLE_STATUSES as readonly number[]).includes(status)) {
      throw validationError([{ path: 'body.response.status', message: `the simulator injects ${INJECTABLE_STATUSES.join(', ')}` }]);
    }
    if (status !== undefined && ops.some((o) => !o.statuses.includes(status))) {
      throw validationError([{ path: 'body.response.status', message: `${status} is not documented for ${ops.filter((o) => !o.statuses.includes(status)).map((o) => o.operationId).slice(0, 3).join(', ')}` }]);
    }
    if (typeof input.latencyMs === 'object' && input.latencyMs.min > input.latencyMs.max) {
      throw validationError([{ path: 'body.latencyMs', message: 'min is above max' }]);
    }
  }
}

function matches(rule: FaultRule, call: FaultCall): boolean {
  return (rule.accountId === undefined || rule.accountId === call.accountId)
    && (rule.operationId === undefined || rule.operationId === call.operation.operationId)
    && (rule.path === undefined || call.path.startsWith(rule.path))
    && (rule.method === undefined || rule.method.toUpperCase() === call.method)
    && (rule.keyHint === undefined || rule.keyHint === call.keyHint);
}

/** The error an injected status answers, with the code, details and headers the contract gives it. */
export function injectedError(response: { status: number; message?: string; retryAfterSeconds?: number }, now: number): ApiError {
  const retryAfter = response.retryAfterSeconds ?? 1;
  switch (response.status) {
    case 429: {
      const resetAt = Math.ceil(now / 1000) + retryAfter;
      return new ApiError(429, 'RATE_LIMITED', response.message ?? `Rate limit exceeded; retry in ${retryAfter} s.`, { bucket: 'key', limit: 60, retryAfterSeconds: retryAfter }, {
        'retry-after': String(retryAfter), 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(resetAt),
      });
    }
    case 503:
      return new ApiError(503, 'SERVICE_UNAVAILABLE', response.message ?? `The service is unavailable; retry in ${retryAfter} s.`, { retryAfterSeconds: retryAfter }, { 'retry-after': String(retryAfter) });
    default:
      return new ApiError(500, 'INTERNAL_ERROR', response.message ?? 'An injected fault.', {});
  }
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
      const status = Number(value);
      if (!(INJECTABLE_STATUSES as readonly number[]).includes(status) || !operation.statuses.includes(status)) {
        throw validationError([{ path: 'header.Prefer', message: `code=${value}: the simulator injects ${INJECTABLE_STATUSES.join(', ')} where ${operation.operationId} documents them` }]);
      }
      decision.error = injectedError({ status }, now);
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
