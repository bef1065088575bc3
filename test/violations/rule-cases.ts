import type { EngineRequest } from '../../src/engine/types.js';
import type { Simulator } from '../../src/simulator.js';
import { dropQuery, jsonBody, leaky, withAccounts, withAuthorization } from './request-tamper.js';
import { editJson, is, jsonOf, presentedKey, withHeaders, withJson, type Handle } from './tamper.js';
import { callerNow, PATHS, type Violation } from './violation.js';

/**
 * Faults of the kinds a suite that samples misses, written from the rule catalogue: the
 * edges of idempotency, a rule kept on some cases of what it governs and not others,
 * values over time and values derived from others, and the less-visited operations.
 */

const withKey = (req: EngineRequest, key: string): EngineRequest => ({ ...req, headers: { ...req.headers, 'idempotency-key': key } });
const idempotencyKey = (req: EngineRequest) => req.headers['idempotency-key'];

/** Idempotency keyed by key and body: a reuse with another body is a new build. */
function keyedByBody(h: Handle): Handle {
  const firstBody = new Map<string, string>();
  return (req) => {
    const key = idempotencyKey(req);
    if (!key || !is(req, 'POST', PATHS.builds)) return h(req);
    const body = JSON.stringify(jsonBody(req));
    if (!firstBody.has(key)) firstBody.set(key, body);
    return h(firstBody.get(key) === body ? req : withKey(req, `${key}#${body.length}`));
  };
}

/** The answer of a key's refused first use is stored and replayed for every later use of the key. */
function rememberFailures(h: Handle): Handle {
  const failed = new Map<string, ReturnType<Handle>>();
  return (req) => {
    const key = idempotencyKey(req);
    if (!key || !is(req, 'POST', PATHS.builds)) return h(req);
    const stored = failed.get(`${presentedKey(req)}|${key}`);
    if (stored) return stored;
    const res = h(req);
    if (res.status >= 400 && res.status < 500 && res.status !== 429) failed.set(`${presentedKey(req)}|${key}`, res);
    return res;
  };
}

/** A key store written behind the answer: until another route is called, a key just used is not seen. */
function writeBehind(h: Handle): Handle {
  const pending = new Map<string, number>();
  return (req) => {
    const key = idempotencyKey(req);
    if (!is(req, 'POST', PATHS.builds)) {
      pending.clear();
      return h(req);
    }
    if (!key) return h(req);
    const seen = pending.get(key);
    if (seen !== undefined) {
      pending.set(key, seen + 1);
      return h(withKey(req, `${key}~${seen}`));
    }
    const res = h(req);
    if (res.status === 202) pending.set(key, 1);
    return res;
  };
}

/** An idempotency window shorter than 24 hours. */
function windowOf(hours: number, sim: Simulator, h: Handle): Handle {
  const firstUse = new Map<string, number>();
  return (req) => {
    const key = idempotencyKey(req);
    if (!key || !is(req, 'POST', PATHS.builds)) return h(req);
    const now = callerNow(sim, req);
    const first = firstUse.get(key) ?? now;
    firstUse.set(key, first);
    return h(now - first >= hours * 3600_000 ? withKey(req, `${key}@${first}`) : req);
  };
}

/** A route that checks the scope only where the resource is missing: with an owned id, the key's account reads it. */
function scopeOnlyWhenMissing(h: Handle, route: RegExp, when: (req: EngineRequest) => boolean = () => true): Handle {
  return withAccounts(h, (inner, accounts) => (req) => {
    const res = inner(req);
    if (res.status !== 403 || !is(req, 'GET', route) || !when(req)) return res;
    const keys = accounts.find((k) => Object.values(k).includes(presentedKey(req) ?? ''));
    if (!keys?.readWrite) return res;
    const found = inner(withAuthorization(req, `Bearer ${keys.readWrite}`));
    return found.status === 200 ? found : res;
  });
}

/** A conversation that takes one exchange less than its cap. */
function chatCapAt(exchanges: number, h: Handle): Handle {
  const counts = new Map<string, number>();
  return (req) => {
    const match = /^\/api\/v1\/chats\/([^/]+)\/messages$/.exec(req.url.split('?')[0] as string);
    if (!match || req.method !== 'POST') return h(req);
    const chatId = match[1] as string;
    const done = counts.get(chatId) ?? 0;
    if (done >= exchanges) {
      const probe = h({ ...req, method: 'GET', url: `/api/v1/chats/${chatId}`, body: undefined });
      return withJson(probe, { error: 'This conversation is full: start a new one.', code: 'CONFLICT', details: { chatId, maxMessages: exchanges * 2 } }, 409);
    }
    const res = h(req);
    if (res.status === 201) counts.set(chatId, done + 1);
    return res;
  };
}

/** One listen version per deliverable, whatever the voice: the first one answered again. */
function oneListenVersion(h: Handle): Handle {
  const first = new Map<string, ReturnType<Handle>>();
  return (req) => {
    const match = /^\/api\/v1\/deliverables\/([^/]+)\/audio$/.exec(req.url.split('?')[0] as string);
    if (!match || req.method !== 'POST') return h(req);
    const stored = first.get(`${presentedKey(req)}|${match[1]}`);
    if (stored) return { ...stored, status: 200 };
    const res = h(req);
    if (res.status === 201) first.set(`${presentedKey(req)}|${match[1]}`, res);
    return res;
  };
}

/** Rotating a key that cannot be rotated makes a new key anyway. */
function rotateAnything(h: Handle): Handle {
  return (req) => {
    const res = h(req);
    const match = /^\/api\/v1\/keys\/([^/]+)\/rotate$/.exec(req.url.split('?')[0] as string);
    if (!match || req.method !== 'POST' || res.status !== 409) return res;
    const body = new TextEncoder().encode(JSON.stringify({ name: 'rotated', scopes: ['svc:read'] }));
    const made = h({ ...req, url: '/api/v1/keys', body, headers: { ...req.headers, 'content-type': 'application/json', 'content-length': String(body.byteLength) } });
    return made.status === 201 ? withJson(made, { ...jsonOf(made), rotatedFromId: match[1] }) : res;
  };
}

/** The next page's cursor of every page after the first is the cursor that asked for it: page three repeats page two. */
function stuckCursor(h: Handle): Handle {
  return editJson(h, (req, res) => req.method === 'GET' && res.status === 200 && /[?&]cursor=/.test(req.url) && String(res.body).includes('"nextCursor":"'), (json, req) => {
    json.nextCursor = new URLSearchParams(req.url.split('?')[1]).get('cursor');
  });
}

/** The first segments of the service's routes: anything else falls through to the router's fallback. */
const ROUTED = /^\/api\/v1\/(tokens|targets|builds|deliverables|shares|shared|images|audio|chats|suggestions|keys|oauth)(\/|$)/;

export const RULE_CASE_VIOLATIONS: Violation[] = [
  // Idempotency beyond the happy replay
  { id: 'idempotency-other-body-creates', description: 'a reused Idempotency-Key with another body creates a second build and charges it', rule: 'also when the reuse carries another body', documented: true, wrap: keyedByBody },
  { id: 'idempotency-failure-replayed', description: 'a key whose first use was refused replays the refusal forever, so the corrected request never makes its build', rule: 'a key whose first use was refused made no build', documented: true, wrap: rememberFailures },
  { id: 'idempotency-concurrent-duplicates', description: 'the key store is written behind the answer: concurrent first uses of a key each create and charge a build', rule: 'concurrent first uses of one key create one build', documented: true, wrap: writeBehind },
  { id: 'idempotency-window-23h', description: 'the idempotency window is 23 hours, not 24', rule: 'a replay one second before it ends still returns the existing build', wrap: (h, sim) => windowOf(23, sim, h) },
  { id: 'idempotency-per-key', description: 'idempotency is kept per API key, not per account: another key of the account reusing the key creates a build', rule: 'idempotency is per account', wrap: (h) => (req) => (idempotencyKey(req) && is(req, 'POST', PATHS.builds) ? h(withKey(req, `${idempotencyKey(req)}|${presentedKey(req)}`)) : h(req)) },
  // Rules kept on a sample of their cases
  { id: 'rate-headers-missing-on-402', areas: ['tokens'], description: 'the rate-limit headers are left off 402 answers', rule: 'present on every response', documented: true, wrap: (h) => (req) => { const res = h(req); return res.status === 402 ? withHeaders(res, (x) => { for (const n of Object.keys(x)) if (n.startsWith('x-ratelimit-')) delete x[n]; }) : res; } },
  { id: 'rate-headers-missing-on-409', areas: ['targets'], description: 'the rate-limit headers are left off 409 answers', rule: 'present on every response', wrap: (h) => (req) => { const res = h(req); return res.status === 409 ? withHeaders(res, (x) => { for (const n of Object.keys(x)) if (n.startsWith('x-ratelimit-')) delete x[n]; }) : res; } },
  { id: 'rate-headers-missing-off-route', areas: ['errors'], description: 'the router\'s fallback (a path no operation has, a method it lacks) answers without the rate-limit headers', rule: 'present on every response', wrap: (h) => (req) => { const res = h(req); return res.status === 405 || !ROUTED.test(req.url.split('?')[0] as string) ? withHeaders(res, (x) => { for (const n of Object.keys(x)) if (n.startsWith('x-ratelimit-')) delete x[n]; }) : res; } },
  { id: 'scope-skipped-for-existing-build', areas: ['auth'], description: 'getBuild checks the scope only when the build does not exist: a write-only key reads an existing build', rule: 'also for ids the account owns', documented: true, wrap: (h) => scopeOnlyWhenMissing(h, PATHS.build) },
  { id: 'scope-skipped-for-html-download', areas: ['auth'], description: 'the HTML download of an existing deliverable skips the scope check (the Markdown one keeps it)', rule: 'also for ids the account owns', documented: true, wrap: (h) => scopeOnlyWhenMissing(h, PATHS.download, (req) => /[?&]format=html/.test(req.url)) },
  { id: 'keys-listed-with-first-scopes', areas: ['keys'], description: 'the key list shows every key with the scopes of the first one', rule: 'every key of the account is listed with its own scopes', wrap: (h) => editJson(h, (req, res) => is(req, 'GET', /^\/api\/v1\/keys$/) && res.status === 200, (json) => { const first = json.data[0]?.scopes; for (const k of json.data) k.scopes = first; }) },
  { id: 'kind-news-delivered-as-blog', description: 'a news build delivers a deliverable of kind blog: one kind stands for another', rule: 'a build of each of the ten kinds completes with one deliverable of its kind', wrap: (h) => editJson(h, (req, res) => is(req, 'GET', PATHS.build) && res.status === 200 && String(res.body).includes('"kind":"news"'), (json) => { for (const d of json.deliverables) d.kind = 'blog'; }) },
  { id: 'filter-lost-after-first-page', areas: ['requests'], description: 'a list\'s filter holds on its first page only: the cursor\'s pages ignore it', rule: 'page by page (limit=2, each nextCursor)', wrap: (h) => (req) => (is(req, 'GET', PATHS.builds) && /[?&]cursor=/.test(req.url) ? dropQuery(dropQuery(h, 'GET', PATHS.builds, 'status'), 'GET', PATHS.builds, 'targetId')(req) : h(req)) },
  { id: 'cursor-stuck-after-second-page', areas: ['requests'], description: 'every page after the first hands back its own cursor as nextCursor: page three repeats page two', rule: 'every page of two, cursor after cursor', wrap: stuckCursor },
  // Values over time and values derived from others
  { id: 'refund-balance-after-stale', areas: ['tokens'], description: 'a build_refund transaction shows the balance before the refund as its balanceAfter', rule: 'the ledger adds up', wrap: (h) => editJson(h, (req, res) => is(req, 'GET', PATHS.transactions) && res.status === 200, (json) => { for (const t of json.data) if (t.type === 'build_refund') t.balanceAfter -= t.amount; }) },
  { id: 'progress-falls-at-merging', description: 'progress drops back to 10 while the build is merging', rule: 'its progress never falls', wrap: (h) => editJson(h, (req, res) => is(req, 'GET', PATHS.build) && res.status === 200, (json) => { if (json.build.status === 'merging') json.build.progress = 10; }) },
  { id: 'updated-at-every-read', description: 'updatedAt is the time of the read, not of the last status change', rule: 'updatedAt moves only when the status changes', wrap: (h, sim) => editJson(h, (req, res) => is(req, 'GET', PATHS.build) && res.status === 200, (json, req) => { json.build.updatedAt = new Date(callerNow(sim, req)).toISOString(); }) },
  // Less-visited operations and conditions
  { id: 'rotate-revoked-key', areas: ['keys'], description: 'rotating a revoked key makes a new active key', rule: 'rotating a revoked key, or a key already rotated out, is 409 CONFLICT', wrap: rotateAnything },
  { id: 'grant-revoked-across-accounts', areas: ['auth'], description: 'a grant of another account is found and revoked', rule: 'grants belong to their account', wrap: (h) => leaky(h, 'DELETE', /^\/api\/v1\/oauth\/grants\/[^/]+$/) },
  { id: 'chat-cap-one-short', areas: ['generation'], description: 'a conversation is full after 49 exchanges, not 50', rule: 'a conversation holds at most 100 messages', wrap: (h) => chatCapAt(49, h) },
  { id: 'one-listen-version-per-deliverable', areas: ['generation'], description: 'a deliverable gets one listen version, whatever voice is asked', rule: 'one listen version per deliverable and voice', wrap: oneListenVersion },
];
