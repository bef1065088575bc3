import type { Simulator } from '../../src/simulator.js';
import { findBundle } from '../../src/ledger/bundles.js';
import { purchase } from '../../src/ledger/ledger.js';
import { balanceJson, transactionJson } from '../../src/operations/serialize.js';
import { accountOf, editJson, is, jsonOf, withJson } from './tamper.js';
import { callerNow, isReplay, PATHS, type Violation } from './violation.js';

/**
 * Faults of the kind a real implementation has and no single-scenario check was written for:
 * each shows only after a particular sequence of calls (a clock move, a key revoked, a build
 * over MCP, a failure). The model-based phase must find each and shrink it to a short
 * reproduction; `rule` is a piece of the rule its failure must name.
 */
export interface ModelFault extends Violation {
  /** The spec states the rule: the phase finds it at the documented level too. */
  documented?: true;
}

const HOUR = 60 * 60 * 1000;

/** The account a request's key belongs to, through the store (an MCP request has no engine request). */
function accountByKey(sim: Simulator, authorization: string | null) {
  const key = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
  const record = key ? sim.internal.store.findKey(key) : undefined;
  return record ? { record, account: sim.internal.store.account(record.accountId) } : undefined;
}

/** The JSON-RPC message of an MCP answer (JSON, or the last data event of an SSE stream). */
async function rpcOf(response: Response): Promise<any> {
  const text = await response.clone().text();
  const data = text.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5)).pop() ?? text;
  try {
    return JSON.parse(data);
  } catch {
    return undefined;
  }
}

/** Lets a `wrapMcp` reach the simulator that `wrap` was given (both are called by simulatorUnderTest, wrap first). */
function withSimulator(fault: Omit<ModelFault, 'wrap' | 'wrapMcp'> & { mcp: (fetch: (r: Request) => Promise<Response>, sim: () => Simulator) => (r: Request) => Promise<Response> }): ModelFault {
  let simulator: Simulator | undefined;
  const { mcp, ...rest } = fault;
  return { ...rest, wrap: (h, sim) => ((simulator = sim), h), wrapMcp: (fetch) => mcp(fetch, () => simulator as Simulator) };
}

export const MODEL_FAULTS: ModelFault[] = [
  {
    id: 'replay-charges-after-an-hour',
    description: 'a replay more than an hour after the first call charges the build again',
    rule: 'charges nothing',
    documented: true,
    wrap: (h, sim) => (req) => {
      const res = h(req);
      const account = accountOf(sim, req);
      const build = isReplay(req, res) && account ? account.builds.get(jsonOf(res).buildId) : undefined;
      if (account && build && callerNow(sim, req) - build.createdAt >= HOUR && account.balance >= build.cost) {
        account.balance -= build.cost;
        account.lifetimeUsed += build.cost;
      }
      return res;
    },
  },
  {
    id: 'idempotency-window-ends-early',
    description: 'an Idempotency-Key is forgotten after 23 hours instead of 24',
    rule: 'within 24 hours returns the existing build',
    documented: true,
    wrap: (h, sim) => (req) => {
      const key = req.headers['idempotency-key'];
      const account = accountOf(sim, req);
      if (!is(req, 'POST', PATHS.builds) || !key || !account) return h(req);
      const now = callerNow(sim, req);
      const build = account.builds.get(account.idempotency.find(key, now) ?? '');
      if (!build || now - build.createdAt < 23 * HOUR) return h(req);
      const { 'idempotency-key': _, ...headers } = req.headers;
      return h({ ...req, headers });
    },
  },
  {
    id: 'purchase-other-bundle-not-refused',
    description: 'a purchase replayed with its Idempotency-Key for another bundle buys that bundle instead of 409 CONFLICT',
    rule: 'for a different bundle is 409 CONFLICT',
    wrap: (h, sim) => (req) => {
      const res = h(req);
      const account = accountOf(sim, req);
      const bundle = findBundle(String(JSON.parse(new TextDecoder().decode(req.body ?? new Uint8Array()) || '{}').bundleId));
      if (!is(req, 'POST', /^\/api\/v1\/tokens\/purchases$/) || res.status !== 409 || !account || !bundle) return res;
      const t = purchase(account, bundle.tokens, `Purchase of ${bundle.name}`, callerNow(sim, req), bundle.id);
      const json = { transaction: { ...transactionJson(t), bundleId: bundle.id }, bundle: { id: bundle.id, name: bundle.name, tokens: bundle.tokens, priceCents: bundle.priceCents, currency: bundle.currency }, balance: balanceJson(account) };
      return { ...withJson(res, json, 201), headers: { ...res.headers, location: `/api/v1/tokens/transactions/${t.id}` } };
    },
  },
  {
    id: 'refund-one-short',
    description: 'a failed build\'s refund gives back one token less to the balance than it takes off lifetimeUsed',
    rule: 'the balance falls by each charged build',
    wrap: (h, sim) => {
      const seen = new Set<string>();
      return (req) => {
        const res = h(req);
        const account = accountOf(sim, req);
        for (const t of account ? account.transactions.valuesBy('type', 'build_refund') : []) {
          if (seen.has(t.id)) continue;
          seen.add(t.id);
          account!.balance = Math.max(0, account!.balance - 1);
        }
        return res;
      };
    },
  },
  {
    id: 'keyless-builds-not-listed',
    description: 'the build list leaves out builds created without an Idempotency-Key',
    rule: 'lists every build of the account',
    wrap: (h) => editJson(h, (req, res) => is(req, 'GET', PATHS.builds) && res.status === 200, (json) => ({ ...json, data: json.data.filter((b: { idempotencyKey: string | null }) => b.idempotencyKey !== null) })),
  },
  revokedKeyWorksOverMcp(),
  withSimulator({
    id: 'mcp-builds-not-charged',
    description: 'a build created through the MCP tool is not charged (the REST path charges)',
    rule: 'the balance falls by each charged build',
    mcp: (fetch, sim) => async (request) => {
      const call = await request.clone().json().catch(() => undefined);
      const response = await fetch(request);
      if (call?.method !== 'tools/call' || call.params?.name !== 'createBuild') return response;
      const result = (await rpcOf(response))?.result;
      const account = accountByKey(sim(), request.headers.get('authorization'))?.account;
      const build = result && !result.isError && !result.structuredContent?.idempotent ? account?.builds.get(result.structuredContent.buildId) : undefined;
      if (account && build) {
        account.balance += build.cost;
        account.lifetimeUsed -= build.cost;
      }
      return response;
    },
  }),
];


/** A key revoked or rotated through the API keeps working over MCP: the MCP endpoint checks revocation of no key the API revoked. */
function revokedKeyWorksOverMcp(): ModelFault {
  let simulator: Simulator | undefined;
  const revokedByApi = new Set<string>();
  return {
    id: 'revoked-key-works-over-mcp',
    description: 'a key revoked or rotated through the API keeps working over MCP (revocation is checked on REST only)',
    rule: 'until it is revoked or rotated',
    wrap: (h, sim) => {
      simulator = sim;
      return (req) => {
        const res = h(req);
        const id = /^\/api\/v1\/keys\/([^/]+)(\/rotate)?$/.exec(req.url.split('?')[0] as string)?.[1];
        if (id && res.status < 300 && (req.method === 'DELETE' || req.method === 'POST')) revokedByApi.add(id);
        return res;
      };
    },
    wrapMcp: (fetch) => async (request) => {
      const found = accountByKey(simulator as Simulator, request.headers.get('authorization'));
      const revokedAt = found?.record.revokedAt ?? null;
      if (!found || revokedAt === null || !revokedByApi.has(found.record.id)) return fetch(request);
      found.record.revokedAt = null;
      try {
        return await fetch(request);
      } finally {
        found.record.revokedAt = revokedAt;
      }
    },
  };
}
