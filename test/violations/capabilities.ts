import type { EngineRequest } from '../../src/engine/types.js';
import { accountOf, editJson, is, jsonOf, pathOf, presentedKey, recordAccounts, withJson } from './tamper.js';
import type { Violation } from './violation.js';

/** Routes of the capabilities openapi.yaml infers: targets after creation, library, sharing, keys, purchases. */
const ROUTES = {
  targets: /^\/api\/v1\/targets$/,
  target: /^\/api\/v1\/targets\/[^/]+$/,
  library: /^\/api\/v1\/targets\/[^/]+\/library$/,
  libraryItem: /^\/api\/v1\/targets\/[^/]+\/library\/[^/]+$/,
  shared: /^\/api\/v1\/shared\/[^/]+$/,
  share: /^\/api\/v1\/shares\/[^/]+$/,
  keys: /^\/api\/v1\/keys$/,
  key: /^\/api\/v1\/keys\/[^/]+$/,
  rotate: /^\/api\/v1\/keys\/[^/]+\/rotate$/,
  purchases: /^\/api\/v1\/tokens\/purchases$/,
} as const;

const lastSegment = (req: EngineRequest): string => decodeURIComponent(pathOf(req).split('/').pop() ?? '');

/** The request's JSON body, or undefined when it has none or it is not JSON. */
function jsonBody(req: EngineRequest): any {
  try {
    return req.body ? JSON.parse(new TextDecoder().decode(req.body)) : undefined;
  } catch {
    return undefined;
  }
}

/** Violations of the targets, library, sharing, keys and purchase scenarios (strict level). */
export const CAPABILITY_VIOLATIONS: Violation[] = [
  {
    id: 'target-update-keeps-updated-at',
    description: 'a PATCHed target keeps its old updatedAt',
    rule: 'moves updatedAt',
    wrap: (h) => editJson(h, (req, res) => (is(req, 'PATCH', ROUTES.target) || is(req, 'GET', ROUTES.target)) && res.status === 200, (json) => ({ ...json, updatedAt: json.createdAt })),
  },
  {
    id: 'delete-target-200-with-body',
    description: 'DELETE of a target answers 200 with a body instead of 204',
    rule: 'DELETE /api/v1/targets/{targetId} answers 204 with no body',
    wrap: (h) => (req) => {
      const res = h(req);
      return is(req, 'DELETE', ROUTES.target) && res.status === 204 ? withJson({ ...res, headers: { ...res.headers, 'content-type': 'application/json; charset=utf-8' } }, { deleted: true }, 200) : res;
    },
  },
  {
    id: 'deleted-slug-stays-taken',
    description: 'the slug of a deleted target is still refused with 409',
    rule: 'a new target takes the freed slug',
    wrap: (h, sim) => {
      const deleted = new Set<string>();
      return (req) => {
        const account = accountOf(sim, req);
        if (is(req, 'DELETE', ROUTES.target) && account) {
          const slug = account.targets.get(lastSegment(req))?.slug;
          const res = h(req);
          if (res.status === 204 && slug) deleted.add(slug);
          return res;
        }
        const body = is(req, 'POST', ROUTES.targets) ? jsonBody(req) : undefined;
        const taken = account && body && deleted.has(body.slug) ? [...account.targets.values()].find((t) => t.slug !== body.slug) : undefined;
        if (!taken) return h(req);
        // The freed slug is swapped for one in use, so that the service itself answers its 409.
        const swapped = new TextEncoder().encode(JSON.stringify({ ...body, slug: taken.slug }));
        return h({ ...req, body: swapped, headers: { ...req.headers, 'content-length': String(swapped.byteLength) } });
      };
    },
  },
  {
    id: 'library-update-ignored',
    description: 'a PATCH of a library item answers 200 with the item as it was, and changes nothing',
    rule: 'PATCH of a library item changes only the fields sent',
    wrap: (h, sim) => (req) => {
      const item = is(req, 'PATCH', ROUTES.libraryItem) ? accountOf(sim, req)?.library.get(lastSegment(req)) : undefined;
      const before = item && { ...item };
      const res = h(req);
      if (!item || !before || res.status !== 200) return res;
      Object.assign(item, before);
      return withJson(res, { ...jsonOf(res), name: before.name, content: before.content, url: before.url, updatedAt: new Date(before.updatedAt).toISOString() });
    },
  },
  {
    id: 'library-type-filter-ignored',
    description: 'the library list ignores ?type= and answers every item',
    rule: '?type=cta',
    wrap: (h) => (req) => (is(req, 'GET', ROUTES.library) ? h({ ...req, url: req.url.replace(/([?&])type=[^&]*&?/, '$1').replace(/[?&]$/, '') }) : h(req)),
  },
  {
    id: 'share-view-leaks-build-id',
    description: 'the public view of a share carries the buildId of the deliverable',
    rule: 'a share link is read without a key and shows',
    wrap: (h, sim) =>
      editJson(h, (req, res) => is(req, 'GET', ROUTES.shared) && res.status === 200, (json, req) => {
        const token = decodeURIComponent(req.url.split('?')[0]!.split('/').pop()!);
        const entry = sim.internal.store.shareTokens.get(token);
        const share = entry && sim.internal.store.account(entry.accountId)?.shares.get(entry.shareId);
        const ref = share && sim.internal.store.account(entry.accountId)?.deliverables.get(share.deliverableId);
        return { ...json, buildId: ref?.id ?? null };
      }),
  },
  {
    id: 'revoked-share-readable',
    description: 'revoking a share answers 204 but the link keeps working',
    rule: 'the revoked link: expected 404',
    wrap: (h, sim) => (req) => {
      const share = is(req, 'DELETE', ROUTES.share) ? accountOf(sim, req)?.shares.get(lastSegment(req)) : undefined;
      const revokedAt = share?.revokedAt;
      const res = h(req);
      if (share && res.status === 204) share.revokedAt = revokedAt ?? null;
      return res;
    },
  },
  {
    id: 'key-value-in-list',
    description: 'the list of keys shows each key\'s value again',
    rule: 'GET and the list never show the value again',
    wrap: (h) => {
      const values = new Map<string, string>();
      return (req) => {
        const res = h(req);
        if ((is(req, 'POST', ROUTES.keys) || is(req, 'POST', ROUTES.rotate)) && res.status === 201) values.set(jsonOf(res).id, jsonOf(res).value);
        if (!is(req, 'GET', ROUTES.keys) || res.status !== 200) return res;
        const json = jsonOf(res);
        return withJson(res, { ...json, data: json.data.map((k: { id: string }) => (values.has(k.id) ? { ...k, value: values.get(k.id) } : k)) });
      };
    },
  },
  {
    id: 'rotated-key-still-accepted',
    description: 'a rotation issues the new key but leaves the old one active',
    rule: 'the old value after the rotation',
    wrap: (h, sim) => (req) => {
      const res = h(req);
      const old = is(req, 'POST', ROUTES.rotate) && res.status === 201 ? accountOf(sim, req)?.keys.get(jsonOf(res).rotatedFromId) : undefined;
      if (old) old.revokedAt = null;
      return res;
    },
  },
  {
    id: 'revoked-api-key-accepted',
    description: 'revoking a key answers the revoked record but the key keeps working',
    rule: "the revoked key's next call",
    wrap: (h, sim) => (req) => {
      const key = is(req, 'DELETE', ROUTES.key) ? accountOf(sim, req)?.keys.get(lastSegment(req)) : undefined;
      const revokedAt = key?.revokedAt;
      const res = h(req);
      if (key && res.status === 200 && revokedAt === null) key.revokedAt = null;
      return res;
    },
  },
  {
    id: 'key-grants-missing-scope',
    description: 'a write-only key may create a key with svc:read',
    rule: 'a key cannot grant a scope it lacks',
    wrap: (h) => {
      const accounts: Array<Record<string, string>> = [];
      const inner = recordAccounts(h, accounts);
      return (req) => {
        const keys = accounts.find((k) => k.writeOnly === presentedKey(req));
        return inner(keys && is(req, 'POST', ROUTES.keys) ? { ...req, headers: { ...req.headers, authorization: `Bearer ${keys.readWrite}` } } : req);
      };
    },
  },
  {
    id: 'purchase-lifetime-stuck',
    description: 'a purchase adds to the balance but not to lifetimePurchased',
    rule: 'balance and lifetimePurchased grow by them',
    wrap: (h, sim) => (req) => {
      const res = h(req);
      const account = accountOf(sim, req);
      if (!is(req, 'POST', ROUTES.purchases) || res.status !== 201 || !account) return res;
      const { amount } = jsonOf(res).transaction;
      account.lifetimePurchased -= amount;
      const json = jsonOf(res);
      return withJson(res, { ...json, balance: { ...json.balance, lifetimePurchased: json.balance.lifetimePurchased - amount } });
    },
  },
];
