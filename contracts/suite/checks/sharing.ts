import type { Check } from '../check.js';
import type { Reply } from '../http-client.js';
import { expectEqual, expectThat } from '../../shared/outcomes.js';
import type { Session } from '../session.js';
import { expectError, expectNoContent, expectStatus } from './expect.js';

const CREATE = 'openapi.yaml: POST /api/v1/deliverables/{deliverableId}/shares answers 201 with a share of that deliverable whose url is /api/v1/shared/<token>, neither revoked nor expiring';
const VIEW = 'openapi.yaml: a share link is read without a key and shows the deliverable\'s title, kind, content and evidence, nothing of the account, build, target or deliverable id';
const REVOKE = 'openapi.yaml: DELETE /api/v1/shares/{shareId} answers 204 with no body; the link then answers 404 NOT_FOUND, other links keep working, and the share stays listed with its revokedAt';
const LISTED = 'openapi.yaml: listShares lists newest first, revoked and expired links included with their revokedAt and expiresAt; a link without expiresInSeconds works until revoked';
const EXPIRY = 'openapi.yaml: a share link with expiresInSeconds works until expiresAt and answers 404 NOT_FOUND from then on (on the simulator\'s clock: still 200 one millisecond before expiresAt, 404 at expiresAt itself)';

/** What the public view shows (openapi.yaml, SharedDeliverable), and nothing else. */
const VIEW_FIELDS = ['claims', 'html', 'kind', 'markdown', 'sources', 'title', 'verification'];

interface Shared {
  deliverableId: string;
  deliverable: any;
  share: Reply;
}

function created(s: Session, label: string, body?: Record<string, unknown>): Promise<Shared> {
  return s.fixtures.shared(`a share link (${label})`, async () => {
    const { id, reply: deliverable } = await s.fixtures.deliverable();
    const share = await s.client.op('createShare', { deliverableId: id }, body ? { body } : {});
    expectStatus(share, 201, CREATE);
    return { deliverableId: id, deliverable: deliverable.json, share };
  });
}

function view(s: Session, token: string): Promise<Reply> {
  return s.client.op('getSharedDeliverable', { token }, { as: null });
}

/** Sharing a deliverable by link (inferred by openapi.yaml; the spec says deliverables can be shared, not how). */
export function sharingChecks(): Check[] {
  const needsDeliverable = { level: 'strict' as const, groups: ['spend' as const, 'wait' as const] };
  return [
    {
      ...needsDeliverable,
      id: 'sharing.create',
      title: CREATE,
      covers: ['createShare'],
      requests: 66,
      run: async (s) => {
        const { deliverableId, share } = await created(s, 'kept');
        const body = share.json;
        expectEqual(body.deliverableId, deliverableId, `${CREATE}: deliverableId`);
        expectEqual(body.url, `/api/v1/shared/${body.token}`, `${CREATE}: url`);
        expectEqual([body.revokedAt, body.expiresAt], [null, null], `${CREATE}: revokedAt and expiresAt of a link without expiresInSeconds`);
      },
    },
    {
      ...needsDeliverable,
      id: 'sharing.public-view',
      title: VIEW,
      covers: ['getSharedDeliverable'],
      requests: 67,
      run: async (s) => {
        const { deliverable: d, share } = await created(s, 'kept');
        const reply = await view(s, share.json.token);
        expectStatus(reply, 200, `${VIEW}: the view without a key`);
        expectEqual(Object.keys(reply.json).sort(), VIEW_FIELDS, `${VIEW}: the fields shown`);
        expectEqual([reply.json.title, reply.json.kind, reply.json.markdown, reply.json.html], [d.title, d.kind, d.markdown, d.html], `${VIEW}: title, kind, markdown and html of the deliverable`);
        expectEqual([reply.json.sources, reply.json.claims, reply.json.verification], [d.sources, d.claims, d.verification], `${VIEW}: sources, claims and verification of the deliverable`);
        const secrets = { 'deliverable id': d.id, 'build id': d.buildId, 'target id': (await s.fixtures.target()).id };
        const leaked = Object.entries(secrets).filter(([, value]) => value && reply.text.includes(value)).map(([name]) => name);
        expectEqual(leaked, [], `${VIEW}: identifiers the view shows`);
      },
    },
    {
      ...needsDeliverable,
      id: 'sharing.revoke',
      title: REVOKE,
      covers: ['revokeShare', 'listShares', 'getSharedDeliverable'],
      requests: 72,
      run: async (s) => {
        const { deliverableId, share: kept } = await created(s, 'kept');
        const { share } = await created(s, 'revoked');
        expectStatus(await view(s, share.json.token), 200, `${REVOKE}: the link works before it is revoked`);
        await s.time.sleep(1000); // so that a second revocation could not keep the same time by chance
        expectNoContent(await s.client.op('revokeShare', { shareId: share.json.id }), REVOKE);
        expectError(await view(s, share.json.token), 404, 'NOT_FOUND', `${REVOKE}: the revoked link`);
        expectStatus(await view(s, kept.json.token), 200, `${REVOKE}: another link of the deliverable`);
        const listed = await s.client.op('listShares', { deliverableId });
        expectStatus(listed, 200, `${REVOKE}: the list of shares`);
        const byId = new Map(listed.json.data.map((x: { id: string }) => [x.id, x]));
        const revoked = byId.get(share.json.id) as any;
        expectThat(revoked && typeof revoked.revokedAt === 'string', `${REVOKE}: the revoked share is listed with a revokedAt: got ${JSON.stringify(revoked ?? null)}`);
        expectEqual((byId.get(kept.json.id) as any)?.revokedAt, null, `${REVOKE}: the other share is listed, not revoked`);
        expectEqual(listed.json.data[0]?.id, share.json.id, `${REVOKE}: shares are listed newest first`);
        await s.time.sleep(1000);
        expectNoContent(await s.client.op('revokeShare', { shareId: share.json.id }), `${REVOKE}: revoking again`);
        const again = (await s.client.op('listShares', { deliverableId })).json.data.find((x: { id: string }) => x.id === share.json.id);
        expectEqual(again?.revokedAt, revoked.revokedAt, `${REVOKE}: revoking a revoked share changes nothing (revokedAt)`);
      },
    },
    {
      ...needsDeliverable,
      id: 'sharing.expiry',
      title: EXPIRY,
      covers: ['createShare', 'getSharedDeliverable', 'listShares'],
      requests: 73,
      run: async (s) => {
        // The link without expiry is made first: it is older than the expiring one when that one expires.
        const { share: kept } = await created(s, 'kept');
        const { share } = await created(s, 'expiring', { expiresInSeconds: 60 });
        const body = share.json;
        expectEqual(Date.parse(body.expiresAt) - Date.parse(body.createdAt), 60_000, `${EXPIRY}: expiresAt is createdAt + expiresInSeconds`);
        expectStatus(await view(s, body.token), 200, `${EXPIRY}: the link before expiresAt`);
        const expiresAt = Date.parse(body.expiresAt);
        if (s.control?.frozen) {
          // Only the suite moves a frozen clock: it can stand at the last millisecond of the link's life, then at its end.
          await s.time.sleep(expiresAt - 1 - s.time.now());
          expectStatus(await view(s, body.token), 200, `${EXPIRY}: the link 1 ms before expiresAt`);
          await s.time.sleep(expiresAt - s.time.now());
          expectError(await view(s, body.token), 404, 'NOT_FOUND', `${EXPIRY}: the link at expiresAt`);
        }
        await s.time.sleep(expiresAt - s.time.now() + 1000);
        expectError(await view(s, body.token), 404, 'NOT_FOUND', `${EXPIRY}: the link after expiresAt`);
        expectStatus(await view(s, kept.json.token), 200, `${LISTED}: a link without expiresInSeconds still works after another link expired`);
        const listed = await s.client.op('listShares', { deliverableId: share.json.deliverableId });
        expectStatus(listed, 200, `${LISTED}: the list of shares`);
        const expired = listed.json.data.find((x: { id: string }) => x.id === body.id);
        expectEqual(expired?.expiresAt ?? null, body.expiresAt, `${LISTED}: the expired share is listed with its expiresAt`);
      },
    },
  ];
}
