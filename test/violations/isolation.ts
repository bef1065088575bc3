import { accountOf, is, jsonOf, withHeaders, withJson } from './tamper.js';
import { jsonBody, leaky, withAccounts, withBody } from './request-tamper.js';
import type { Violation } from './violation.js';

const ID = '[^/]+';
const route = (path: string) => new RegExp(`^${path.replace(/\{[^}]+\}/g, ID)}$`);

/** One violation per operation a server could answer for another account's resource. */
function leak(id: string, method: string, path: string, documented = false): Violation {
  return {
    id: `foreign-${id}`,
    description: `${method} ${path} finds another account's resource`,
    rule: `another account's key ${method === 'GET' ? 'reads' : 'changes'} nothing of it and gets 404 NOT_FOUND — ${method} ${path}`,
    ...(documented ? { documented, rule: `another account's key is refused (openapi.yaml, strict: 404 NOT_FOUND) — ${method} ${path}` } : {}),
    wrap: (h) => leaky(h, method, route(path)),
  };
}

/** Violations of the isolation between accounts: resources, idempotency keys, rate-limit buckets. */
export const ISOLATION_VIOLATIONS: Violation[] = [
  leak('build', 'GET', '/api/v1/builds/{buildId}', true),
  leak('deliverable', 'GET', '/api/v1/deliverables/{deliverableId}', true),
  leak('download', 'GET', '/api/v1/deliverables/{deliverableId}/download', true),
  leak('target', 'GET', '/api/v1/targets/{targetId}'),
  leak('target-update', 'PATCH', '/api/v1/targets/{targetId}'),
  leak('target-delete', 'DELETE', '/api/v1/targets/{targetId}'),
  leak('library-item', 'GET', '/api/v1/targets/{targetId}/library/{itemId}'),
  leak('share-list', 'GET', '/api/v1/deliverables/{deliverableId}/shares'),
  leak('share-revoke', 'DELETE', '/api/v1/shares/{shareId}'),
  leak('image', 'GET', '/api/v1/images/{imageId}'),
  leak('audio-file', 'GET', '/api/v1/audio/{audioId}/file'),
  leak('chat', 'GET', '/api/v1/chats/{chatId}'),
  leak('chat-message', 'POST', '/api/v1/chats/{chatId}/messages'),
  leak('transaction', 'GET', '/api/v1/tokens/transactions/{transactionId}'),
  leak('api-key', 'GET', '/api/v1/keys/{keyId}'),
  leak('api-key-revoke', 'DELETE', '/api/v1/keys/{keyId}'),
  {
    id: 'list-leaks-other-account',
    description: 'an account with no builds is shown another account\'s',
    rule: 'another account\'s list holds none of the first\'s — GET /api/v1/builds',
    wrap: (h) =>
      withAccounts(h, (inner, accounts) => (req) => {
        const res = inner(req);
        if (!is(req, 'GET', /^\/api\/v1\/builds$/) || res.status !== 200 || jsonOf(res).data.length > 0) return res;
        const other = accounts.map((k) => inner({ ...req, headers: { ...req.headers, authorization: `Bearer ${k.readWrite}` } })).find((r) => r.status === 200 && jsonOf(r).data.length > 0);
        return other ?? res;
      }),
  },
  {
    id: 'balance-of-first-account',
    description: 'every key reads the first account\'s balance',
    rule: 'the balance is the key\'s own account\'s',
    documented: true,
    wrap: (h) =>
      withAccounts(h, (inner, accounts) => (req) =>
        is(req, 'GET', /^\/api\/v1\/tokens\/balance$/) && accounts[0] && req.headers.authorization ? inner({ ...req, headers: { ...req.headers, authorization: `Bearer ${accounts[0].readWrite}` } }) : inner(req),
      ),
  },
  {
    id: 'idempotency-key-global',
    description: 'Idempotency-Keys are shared by all accounts: another account replays the first one\'s build',
    rule: 'the same key from another account never answers the first account\'s build',
    documented: true,
    wrap: (h, sim) => {
      const first = new Map<string, { accountId: string; body: unknown }>();
      return (req) => {
        const key = is(req, 'POST', /^\/api\/v1\/builds$/) ? req.headers['idempotency-key'] : undefined;
        const accountId = key ? accountOf(sim, req)?.id : undefined;
        const earlier = key ? first.get(key) : undefined;
        if (earlier && accountId && earlier.accountId !== accountId) {
          return withJson(h(req), { ...(earlier.body as object), idempotent: true }, 200);
        }
        const res = h(req);
        if (key && accountId && res.status < 300 && !first.has(key)) first.set(key, { accountId, body: jsonOf(res) });
        return res;
      };
    },
  },
  {
    id: 'shared-rate-bucket',
    description: 'one window of 60 for every key of every account on the default routes',
    rule: 'another account\'s calls do not lower a key\'s X-RateLimit-Remaining',
    documented: true,
    // Every call of every account lowers each key's Remaining in that key's current window,
    // whichever clock the account keeps (the suite's accounts need not share one).
    wrap: (h) => {
      let calls = 0;
      const windows = new Map<string, { reset: string; callsBefore: number }>();
      return (req) => {
        const res = h(req);
        const key = req.headers.authorization;
        if (res.headers['x-ratelimit-limit'] !== '60' || !key) return res;
        calls++;
        const reset = res.headers['x-ratelimit-reset'] as string;
        let window = windows.get(key);
        if (window?.reset !== reset) windows.set(key, (window = { reset, callsBefore: calls - 1 }));
        const shared = calls - window.callsBefore;
        return withHeaders(res, (hd) => (hd['x-ratelimit-remaining'] = String(Math.min(Number(hd['x-ratelimit-remaining']), Math.max(0, 60 - shared)))));
      };
    },
  },
  {
    id: 'foreign-target-build',
    description: 'a build may name another account\'s target',
    rule: 'POST /api/v1/builds with another account\'s targetId',
    wrap: (h) => leaky(h, 'POST', /^\/api\/v1\/builds$/),
  },
  {
    id: 'foreign-target-chat',
    description: 'a chat may be opened on another account\'s target',
    rule: 'POST /api/v1/chats with another account\'s targetId gets 404 NOT_FOUND',
    wrap: (h) => leaky(h, 'POST', /^\/api\/v1\/chats$/),
  },
  {
    id: 'foreign-target-brief',
    description: 'a brief may be drawn from another account\'s target',
    rule: 'POST /api/v1/suggestions/brief with another account\'s targetId gets 404 NOT_FOUND',
    wrap: (h) => leaky(h, 'POST', /^\/api\/v1\/suggestions\/brief$/),
  },
  {
    id: 'foreign-target-quotes',
    description: 'quotes may be suggested for another account\'s target',
    rule: 'POST /api/v1/suggestions/quotes with another account\'s targetId gets 404 NOT_FOUND',
    wrap: (h) => leaky(h, 'POST', /^\/api\/v1\/suggestions\/quotes$/),
  },
  {
    id: 'unknown-target-topics-ignored',
    description: 'topic suggestions ignore a targetId that does not resolve',
    rule: 'POST /api/v1/suggestions/topics with an unknown targetId gets 404 NOT_FOUND',
    wrap: (h) => (req) => {
      const res = h(req);
      if (res.status !== 404 || !is(req, 'POST', /^\/api\/v1\/suggestions\/topics$/)) return res;
      const { targetId: _, ...rest } = jsonBody(req) ?? {};
      return h(withBody(req, rest));
    },
  },
  {
    id: 'library-items-unchecked',
    description: 'a build naming library items that are not its target\'s is created without them',
    rule: 'a build whose libraryItemIds names an item that is not of its target',
    wrap: (h) => (req) => {
      const res = h(req);
      if (res.status !== 400 || !is(req, 'POST', /^\/api\/v1\/builds$/) || !/libraryItemIds/.test(String(res.body))) return res;
      const { libraryItemIds: _, ...rest } = jsonBody(req) ?? {};
      return h(withBody(req, rest));
    },
  },
  {
    id: 'unknown-target-build-500',
    description: 'a build naming an unknown target crashes the server',
    rule: 'POST /api/v1/builds with a targetId that is unknown',
    documented: true,
    wrap: (h) => (req) => {
      const res = h(req);
      return res.status === 404 && is(req, 'POST', /^\/api\/v1\/builds$/) ? withJson(res, { error: 'target is undefined', code: 'INTERNAL_ERROR', details: {} }, 500) : res;
    },
  },
  {
    id: 'unknown-target-library-500',
    description: 'a library item for an unknown target crashes the server',
    rule: 'POST /api/v1/targets/{targetId}/library on an unknown targetId gets 404 NOT_FOUND',
    wrap: (h) => (req) => {
      const res = h(req);
      return res.status === 404 && is(req, 'POST', /^\/api\/v1\/targets\/[^/]+\/library$/) ? withJson(res, { error: 'Oops', code: 'INTERNAL_ERROR', details: {} }, 500) : res;
    },
  },
  {
    id: 'unknown-key-rotate-409',
    description: 'rotating an unknown key answers 409 CONFLICT',
    rule: 'POST /api/v1/keys/{keyId}/rotate on an unknown keyId gets 404 NOT_FOUND',
    wrap: (h) => (req) => {
      const res = h(req);
      return res.status === 404 && is(req, 'POST', /^\/api\/v1\/keys\/[^/]+\/rotate$/) ? withJson(res, { error: 'Key is not active.', code: 'CONFLICT', details: {} }, 409) : res;
    },
  },
  {
    id: 'unknown-deliverable-share-400',
    description: 'sharing an unknown deliverable answers 400 VALIDATION_ERROR',
    rule: 'POST /api/v1/deliverables/{deliverableId}/shares on an unknown deliverableId gets 404 NOT_FOUND',
    wrap: (h) => (req) => {
      const res = h(req);
      return res.status === 404 && is(req, 'POST', /^\/api\/v1\/deliverables\/[^/]+\/shares$/) ? withJson(res, { error: 'Bad deliverable.', code: 'VALIDATION_ERROR', details: {} }, 400) : res;
    },
  },
];
