import type { FocusedViolation } from './property-faults.js';
import { jsonBody as bodyOf, withBody } from './request-tamper.js';
import { accountOf, editJson, is, jsonOf, pathOf } from './tamper.js';
import { PATHS } from './violation.js';

/** Faults of behaviour openapi.yaml's descriptions state (BuildCreate, Build, Claim, SocialPost, shares, library items, suggestions), each caught by the check of its rule. */
const SHARES = /^\/api\/v1\/deliverables\/[^/]+\/shares$/;
const SHARED = /^\/api\/v1\/shared\/[^/]+$/;
const LIBRARY_ITEM = /^\/api\/v1\/targets\/[^/]+\/library\/[^/]+$/;
const TARGET = /^\/api\/v1\/targets\/[^/]+$/;
const CHAT_MESSAGES = /^\/api\/v1\/chats\/[^/]+\/messages$/;
const ROTATE = /^\/api\/v1\/keys\/[^/]+\/rotate$/;
const IMAGES = /^\/api\/v1\/images$/;
const SUGGESTION = /^\/api\/v1\/suggestions\/(topics|brief|keywords|quotes)$/;


export const DESCRIPTION_FAULTS: FocusedViolation[] = [
  {
    id: 'social-platforms-on-any-kind',
    description: 'socialPlatforms sent on a build of another kind is dropped silently and the build accepted (and charged)',
    rule: 'socialPlatforms on a blog build',
    checks: ['builds.options-fit-kind'],
    wrap: (h) => (request) => {
      const body = is(request, 'POST', PATHS.builds) ? bodyOf(request) : undefined;
      if (!body || body.kind === 'social' || !('socialPlatforms' in body)) return h(request);
      const { socialPlatforms: _, ...rest } = body;
      return h(withBody(request, rest));
    },
  },
  {
    id: 'library-items-only-on-blog',
    description: 'libraryItemIds is refused on every kind but blog',
    rule: 'libraryItemIds on a how_to build',
    checks: ['builds.options-fit-kind'],
    wrap: (h) => (request) => {
      const body = is(request, 'POST', PATHS.builds) ? bodyOf(request) : undefined;
      return body?.libraryItemIds && body.kind !== 'blog' ? h(withBody(request, { ...body, libraryItemIds: ['not-of-this-target'] })) : h(request);
    },
  },
  {
    id: 'social-default-x-only',
    description: 'a social build sent without platforms writes a post for x alone',
    rule: 'a social build sent without platforms writes posts for x and linkedin',
    checks: ['builds.every-kind'],
    wrap: (h) => (request) => {
      const body = is(request, 'POST', PATHS.builds) ? bodyOf(request) : undefined;
      return body?.kind === 'social' && !body.socialPlatforms ? h(withBody(request, { ...body, socialPlatforms: ['x'] })) : h(request);
    },
  },
  {
    id: 'build-forgets-platforms',
    description: 'a build no longer shows the socialPlatforms it was created with',
    rule: 'as given at creation; present only when it was',
    checks: ['builds.platforms-in-content'],
    wrap: (h) => editJson(h, (req, res) => is(req, 'GET', PATHS.build) && res.status === 200, (json) => void delete json.build.socialPlatforms),
  },
  {
    id: 'build-shows-options-not-given',
    description: 'a build sent without libraryItemIds shows an empty list of them',
    rule: 'options present only when given at creation',
    checks: ['builds.echo'],
    wrap: (h) => editJson(h, (req, res) => is(req, 'GET', PATHS.build) && res.status === 200, (json) => void (json.build.libraryItemIds ??= [])),
  },
  {
    id: 'claim-confidence-off-verdict',
    description: 'a supported claim carries the confidence of a weak one (0.55)',
    rule: 'claims that disagree with themselves',
    checks: ['deliverables.claims'],
    wrap: (h) => editJson(h, (req, res) => is(req, 'GET', PATHS.deliverable) && res.status === 200, (json) => {
      for (const claim of json.claims ?? []) if (claim.verdict === 'supported') claim.confidence = 0.55;
    }),
  },
  {
    id: 'character-count-off-by-one',
    description: 'a social post counts one character more than its text has',
    rule: 'characterCount of the linkedin post is the code points of its text',
    checks: ['builds.platforms-in-content'],
    wrap: (h) => editJson(h, (req, res) => is(req, 'GET', PATHS.deliverable) && res.status === 200, (json) => {
      for (const post of json.kindData?.posts ?? []) post.characterCount = [...post.text].length + 1;
    }),
  },
  {
    id: 'expired-shares-unlisted',
    description: 'the list of a deliverable\'s shares leaves out the links that expired',
    rule: 'the expired share is listed with its expiresAt',
    checks: ['sharing.expiry'],
    wrap: (h, sim) => (request) => {
      const now = accountOf(sim, request)?.now(sim.clock.now()) ?? sim.clock.now();
      return is(request, 'GET', SHARES) ? editJson(h, (_, res) => res.status === 200, (json) => void (json.data = json.data.filter((s: { expiresAt: string | null }) => s.expiresAt === null || Date.parse(s.expiresAt) > now)))(request) : h(request);
    },
  },
  {
    id: 'links-lapse-after-a-minute',
    description: 'a link made without expiresInSeconds stops working a minute after it was made',
    rule: 'a link without expiresInSeconds still works after another link expired',
    checks: ['sharing.expiry'],
    wrap: (h, sim) => (request) => {
      if (!is(request, 'GET', SHARED)) return h(request);
      const entry = sim.internal.store.shareTokens.get(decodeURIComponent(pathOf(request).split('/').pop() ?? ''));
      const account = entry ? sim.internal.store.account(entry.accountId) : undefined;
      const share = entry ? account?.shares.get(entry.shareId) : undefined;
      if (account && share && share.expiresAt === null && account.now(sim.clock.now()) - share.createdAt >= 60_000) {
        share.revokedAt = share.createdAt + 60_000;
      }
      return h(request);
    },
  },
  {
    id: 'library-type-change-ignored',
    description: 'a PATCH of a library item that sends type is accepted, the type dropped silently',
    rule: 'a PATCH that changes the type',
    checks: ['library.update'],
    wrap: (h) => (request) => {
      const body = is(request, 'PATCH', LIBRARY_ITEM) ? bodyOf(request) : undefined;
      if (!body || !('type' in body)) return h(request);
      const { type: _, ...rest } = body;
      return h(withBody(request, rest));
    },
  },
  {
    id: 'suggestions-charge',
    description: 'a suggestion takes a token from the balance',
    rule: 'a suggestion stores and charges nothing',
    checks: ['suggestions.free'],
    wrap: (h, sim) => (request) => {
      const res = h(request);
      const account = accountOf(sim, request);
      if (request.method === 'POST' && SUGGESTION.test(pathOf(request)) && res.status === 200 && account) account.balance -= 1;
      return res;
    },
  },
  {
    id: 'media-contact-null-ignored',
    description: 'a PATCH with brandKit.pressRelease.mediaContact null keeps the contact',
    rule: 'PATCH merges brandKit part by part',
    checks: ['targets.brand-kit-merge'],
    wrap: (h) => (request) => {
      const body = is(request, 'PATCH', TARGET) ? bodyOf(request) : undefined;
      if (body?.brandKit?.pressRelease?.mediaContact !== null) return h(request);
      delete body.brandKit.pressRelease.mediaContact;
      return h(withBody(request, body));
    },
  },
  {
    id: 'seo-replaced-whole',
    description: 'a PATCH of one SEO field resets the others to their defaults',
    rule: 'PATCH merges brandKit part by part',
    checks: ['targets.brand-kit-merge'],
    wrap: (h) => (request) => {
      const body = is(request, 'PATCH', TARGET) ? bodyOf(request) : undefined;
      if (!body?.brandKit?.seo) return h(request);
      return h(withBody(request, { ...body, brandKit: { ...body.brandKit, seo: { primaryKeywords: [], ...body.brandKit.seo } } }));
    },
  },
  {
    id: 'user-message-carries-references',
    description: 'the user\'s message carries the references of the reply',
    rule: 'the user\'s message\'s references',
    checks: ['chat.references'],
    wrap: (h) => editJson(h, (req, res) => is(req, 'POST', CHAT_MESSAGES) && res.status === 201, (json) => void (json.message.references = json.reply.references)),
  },
  {
    id: 'reply-names-no-library-item',
    description: 'a reply that uses the target\'s call to action lists no references',
    rule: 'the reply\'s references',
    checks: ['chat.references'],
    wrap: (h) => editJson(h, (req, res) => is(req, 'POST', CHAT_MESSAGES) && res.status === 201, (json) => void (json.reply.references = [])),
  },
  {
    id: 'single-build-ignores-pages',
    description: 'a single build sent with 2 pages is accepted as one page',
    rule: 'a single build of 2 pages',
    checks: ['builds.pages-fit-type'],
    wrap: (h) => (request) => {
      const body = is(request, 'POST', PATHS.builds) ? bodyOf(request) : undefined;
      if (!body || body.buildType === 'suite' || !('pages' in body)) return h(request);
      const { pages: _, ...rest } = body;
      return h(withBody(request, rest));
    },
  },
  {
    id: 'starting-balance-names-a-bundle',
    description: 'the starting balance and every other entry bought from no bundle are listed with the bundle starter',
    rule: 'entries with another sign or bundleId',
    checks: ['tokens.ledger'],
    wrap: (h) => editJson(h, (req, res) => is(req, 'GET', PATHS.transactions) && res.status === 200, (json) => {
      for (const entry of json.data) entry.bundleId ??= 'starter';
    }),
  },
  {
    id: 'grant-outlives-rotation',
    description: 'rotating a key hands its OAuth grants to the new key: their access tokens keep working',
    rule: 'after rotateApiKey of its key',
    checks: ['oauth.grants-follow-key'],
    wrap: (h, sim) => (request) => {
      const res = h(request);
      if (!is(request, 'POST', ROTATE) || res.status >= 300) return res;
      const { id: successor, rotatedFromId } = jsonOf(res);
      for (const grant of sim.internal.oauth.store.grants.values()) if (grant.keyId === rotatedFromId) grant.keyId = successor;
      return res;
    },
  },
  {
    id: 'logo-text-not-target-name',
    description: 'an image\'s logo of a target shows the target\'s slug, not its name',
    rule: 'logo text and targetId of a logo of the target',
    checks: ['images.logo'],
    wrap: (h, sim) => editJson(h, (req, res) => is(req, 'POST', IMAGES) && res.status === 201 && jsonOf(res).logo?.targetId, (json, req) => {
      json.logo.text = accountOf(sim, req)?.targets.get(json.logo.targetId)?.slug ?? 'slug';
    }),
  },
  {
    id: 'brief-kind-inferred-anyway',
    description: 'a brief takes the kind its prompt suggests, whatever kind was asked',
    rule: 'forces the kind instead of inferring it',
    checks: ['suggestions.brief'],
    wrap: (h) => (request) => {
      const body = is(request, 'POST', /^\/api\/v1\/suggestions\/brief$/) ? bodyOf(request) : undefined;
      if (!body?.kind || !/blog post/.test(body.prompt ?? '')) return h(request);
      const { kind: _, ...rest } = body;
      return h(withBody(request, rest));
    },
  },
];
