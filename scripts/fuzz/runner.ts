import fc from 'fast-check';
import type { ContractValidator, Violation } from '../../contracts/shared/contract-validator.js';
import { readOperations, RequestChecker, requests, type FuzzRequest, type Operation, type RequestContext } from './operations.js';
import { IdPool } from './id-pool.js';
import { followUps } from './stateful.js';

type Json = Record<string, any>;

export interface FuzzBudget {
  /** Requests per operation and mode (positive, negative). */
  examples: number;
  /** Rounds over all operations: state (targets, builds) grows between them. */
  rounds: number;
  /** fast-check seed: the same seed replays the same requests against a fresh simulator. */
  seed: number;
  /** Stop generating once this much time has passed, whatever is left. */
  timeLimitMs: number;
}

export interface Finding {
  request: FuzzRequest;
  status: number;
  problems: string[];
  body: string;
}

export interface DocumentResult {
  document: string;
  operations: number;
  requests: { positive: number; negative: number };
  /** Requests sent to each operation. */
  perOperation: Record<string, number>;
  statuses: Record<string, number>;
  serverErrors: Finding[];
  violations: Finding[];
  /** Transport failures: a reset connection, a timeout. */
  transport: Finding[];
  /** Negative requests answered 2xx (Schemathesis's negative_data_rejection), reported apart. */
  acceptedInvalid: Finding[];
  /** A created resource not readable at once, or a deleted one still there (stateful checks), reported apart. */
  stateful: Finding[];
}

export interface DocumentUnderTest {
  id: string;
  doc: Json;
  /** Operations left out, with why (for the report). */
  skip?: Record<string, string>;
}

const REQUEST_TIMEOUT_MS = 15_000;
const STREAM_READ_MS = 200;
const KEEP_FINDINGS = 200;

/**
 * Fuzzes every operation of a document against a running server, round after round, positive
 * then negative requests per operation, and checks each response against the contracts.
 */
export async function fuzzDocument(
  target: DocumentUnderTest,
  baseUrl: string,
  validator: ContractValidator,
  credentials: RequestContext['credentials'],
  budget: FuzzBudget,
): Promise<DocumentResult> {
  const pool = new IdPool();
  const operations = readOperations(target.doc).filter((op) => !target.skip?.[op.id]);
  const ctx: RequestContext = { doc: target.doc, checker: new RequestChecker(target.doc), known: pool.arbitrary, credentials };
  const result: DocumentResult = { document: target.id, operations: operations.length, requests: { positive: 0, negative: 0 }, perOperation: Object.fromEntries(operations.map((op) => [op.id, 0])), statuses: {}, serverErrors: [], violations: [], transport: [], acceptedInvalid: [], stateful: [] };
  const deadline = Date.now() + budget.timeLimitMs;
  await unspecifiedMethods(operations, ctx, baseUrl, validator, pool, result);
  const perRound = Math.max(1, Math.ceil(budget.examples / budget.rounds));
  for (let round = 0; round < budget.rounds && Date.now() < deadline; round++) {
    for (const [index, op] of ordered(operations).entries()) {
      for (const mode of ['positive', 'negative'] as const) {
        if (Date.now() >= deadline) break;
        const seed = (budget.seed + round * 7919 + index * 104729 + (mode === 'negative' ? 1 : 0)) | 0;
        await fc.assert(
          fc.asyncProperty(requests(op, ctx, mode), async (req) => {
            if (!req || Date.now() >= deadline) return;
            const answer = await exchange(req, op, baseUrl, validator, pool, result);
            if (!answer) return;
            for (const next of followUps(op, req, answer.status, answer.body, operations)) {
              const seen = await exchange(next.request, next.operation, baseUrl, validator, pool, result);
              const wrong = seen && next.judge(seen.status, seen.body);
              if (wrong) keep(result.stateful, { request: next.request, status: seen.status, problems: [`${next.check}: ${wrong}`], body: seen.body.slice(0, 600) });
            }
          }),
          { numRuns: perRound, seed, interruptAfterTimeLimit: Math.max(1, deadline - Date.now()), markInterruptAsFailure: false },
        );
      }
    }
  }
  return result;
}

/**
 * Each path with the methods its document does not give it (Schemathesis's unsupported-method
 * check): 405 with `Allow`, never a 5xx. Path parameters get a well-formed id that names nothing.
 */
async function unspecifiedMethods(operations: Operation[], ctx: RequestContext, baseUrl: string, validator: ContractValidator, pool: IdPool, result: DocumentResult): Promise<void> {
  const byPath = new Map<string, Operation[]>();
  for (const op of operations) byPath.set(op.template, [...(byPath.get(op.template) ?? []), op]);
  for (const [template, ops] of byPath) {
    const path = template.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000');
    const secured = ops.some((op) => op.secured);
    for (const method of ['GET', 'PUT', 'POST', 'PATCH', 'DELETE']) {
      if (ops.some((op) => op.method === method)) continue;
      const headers: Record<string, string> = secured ? { authorization: ctx.credentials.good, 'content-type': 'application/json' } : { 'content-type': 'application/json' };
      const req: FuzzRequest = { operation: `${method} ${template}`, mode: 'negative', mutation: 'unspecified method', method, path, headers, body: method === 'GET' || method === 'DELETE' ? undefined : '{}' };
      await exchange(req, ops[0]!, baseUrl, validator, pool, result, true);
    }
  }
}

/** Creating operations first in each round, so that later ones find ids to work on. */
function ordered(operations: Operation[]): Operation[] {
  const rank = (op: Operation) => (op.method === 'POST' ? 0 : op.method === 'GET' ? 1 : op.method === 'DELETE' ? 3 : 2);
  return [...operations].sort((a, b) => rank(a) - rank(b));
}

async function exchange(req: FuzzRequest, op: Operation, baseUrl: string, validator: ContractValidator, pool: IdPool, result: DocumentResult, unroutable = false): Promise<{ status: number; body: string } | undefined> {
  result.requests[req.mode]++;
  result.perOperation[op.id] = (result.perOperation[op.id] ?? 0) + 1;
  let response: Response;
  let body = '';
  try {
    response = await fetch(baseUrl + req.path, { method: req.method, headers: req.headers, body: req.body, redirect: 'manual', signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    body = await readBody(response);
  } catch (error) {
    keep(result.transport, { request: req, status: 0, problems: [String((error as Error).cause ?? error)], body: '' });
    return undefined;
  }
  const status = response.status;
  result.statuses[status] = (result.statuses[status] ?? 0) + 1;
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  // Rate limits count before routing: a 429 may answer a method no operation has.
  const violations: Violation[] = validator.validate({ method: req.method, url: req.path, status, headers, body }).filter((v) => !(unroutable && status === 429 && v.rule === 'status'));
  const finding = (problems: string[]): Finding => ({ request: req, status, problems, body: body.slice(0, 600) });
  if (status >= 500) keep(result.serverErrors, finding([`${status} from ${op.id}`]));
  if (violations.length > 0) keep(result.violations, finding(violations.map((v) => `[${v.operation} ${v.status} ${v.rule}] ${v.message}`)));
  if (req.mode === 'negative' && status < 300) keep(result.acceptedInvalid, finding([`${status} for ${req.mutation}`]));
  if (status < 300) pool.harvest(op, req, body);
  return { status, body };
}

/** The whole body, except for an endless event stream, of which a short while is read. */
async function readBody(response: Response): Promise<string> {
  if (!(response.headers.get('content-type') ?? '').startsWith('text/event-stream') || !response.body) return response.text();
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const stop = setTimeout(() => void reader.cancel(), STREAM_READ_MS);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    clearTimeout(stop);
  }
  return text;
}

/** Counts every finding, keeps the first ones for the report. */
function keep(list: Finding[] & { total?: number }, finding: Finding): void {
  list.total = (list.total ?? 0) + 1;
  if (list.length < KEEP_FINDINGS) list.push(finding);
}

export function count(list: Finding[] & { total?: number }): number {
  return list.total ?? list.length;
}
