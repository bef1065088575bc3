import type { Check } from '../check.js';
import { createTarget, newestIds } from '../fixtures.js';
import { expectEqual, expectThat } from '../../shared/outcomes.js';
import { expectError, expectNoContent, expectStatus } from './expect.js';

const UPDATE = 'openapi.yaml: PATCH /api/v1/targets/{targetId} changes only the fields sent, merges the brand kit part by part and moves updatedAt';
export const BRAND_KIT_MERGE = 'openapi.yaml: PATCH merges brandKit part by part: voice and tone replace theirs, inside seo and pressRelease each field given replaces its own and the others are kept, mediaContact: null removes the contact';
const SLUG_TAKEN = 'openapi.yaml: a PATCH to a slug another target of the account uses gets 409 CONFLICT and changes nothing';
const DELETE = 'openapi.yaml: DELETE /api/v1/targets/{targetId} answers 204 with no body; the target is then 404 and its slug is free again';

/** Targets after their creation: update and delete (inferred by openapi.yaml; the spec shows neither). */
export function targetEditChecks(): Check[] {
  return [
    {
      id: 'targets.update',
      title: UPDATE,
      level: 'strict',
      covers: ['updateTarget', 'getTarget'],
      requests: 4,
      run: async (s) => {
        const target = await createTarget(s, 'update');
        const before = target.reply.json;
        await s.time.sleep(1000); // so that a moved updatedAt shows
        const name = `${target.name} renamed`;
        const reply = await s.client.op('updateTarget', { targetId: target.id }, { body: { name, brandKit: { tone: 'bold' } } });
        expectStatus(reply, 200, UPDATE);
        const after = reply.json;
        expectEqual([after.id, after.name, after.slug, after.description, after.createdAt], [before.id, name, before.slug, before.description, before.createdAt], `${UPDATE}: id, name (sent), slug, description, createdAt (kept)`);
        expectEqual([after.brandKit?.voice, after.brandKit?.tone], [before.brandKit?.voice, 'bold'], `${UPDATE}: brandKit.voice kept, brandKit.tone replaced`);
        expectThat(Date.parse(after.updatedAt) > Date.parse(before.updatedAt), `${UPDATE}: updatedAt moves: it was ${before.updatedAt}, it is ${after.updatedAt}`);
        const fetched = await s.client.op('getTarget', { targetId: target.id });
        expectStatus(fetched, 200, `${UPDATE}: the target is fetched`);
        expectEqual(fetched.json, after, `${UPDATE}: GET answers the updated target`);
      },
    },
    {
      id: 'targets.brand-kit-merge',
      title: BRAND_KIT_MERGE,
      level: 'strict',
      covers: ['updateTarget', 'getTarget'],
      requests: 4,
      run: async (s) => {
        const { slug, name } = s.newTargetName('brand-kit-merge');
        const brandKit = {
          voice: 'expert',
          tone: 'warm',
          seo: { primaryKeywords: ['burr grinders'], metaDescriptionMaxLength: 150 },
          pressRelease: { boilerplate: `A roastery in Lisbon (${s.config.runId}).`, datelineCity: 'Lisbon', mediaContact: { name: 'Dana Ortiz', email: 'press@example.com' } },
        };
        const created = await s.client.op('createTarget', {}, { body: { name, slug, brandKit } });
        expectStatus(created, 201, `${BRAND_KIT_MERGE}: POST a target with a brand kit`);
        const before = created.json.brandKit;
        const patch = { tone: 'bold', seo: { secondaryKeywords: ['cold brew'] }, pressRelease: { datelineCity: 'Porto', mediaContact: null } };
        const reply = await s.client.op('updateTarget', { targetId: created.json.id }, { body: { brandKit: patch } });
        expectStatus(reply, 200, BRAND_KIT_MERGE);
        const expected = {
          voice: before.voice,
          tone: 'bold',
          seo: { ...before.seo, secondaryKeywords: ['cold brew'] },
          pressRelease: { ...before.pressRelease, datelineCity: 'Porto', mediaContact: null },
        };
        expectEqual(reply.json.brandKit, expected, `${BRAND_KIT_MERGE}: the brand kit after PATCH ${JSON.stringify(patch)}`);
        const fetched = await s.client.op('getTarget', { targetId: created.json.id });
        expectEqual(fetched.json?.brandKit, expected, `${BRAND_KIT_MERGE}: GET answers the merged brand kit`);
        expectNoContent(await s.client.op('deleteTarget', { targetId: created.json.id }), `${BRAND_KIT_MERGE} (the target, cleaned up)`);
      },
    },
    {
      id: 'targets.update-slug-taken',
      title: SLUG_TAKEN,
      level: 'strict',
      covers: ['updateTarget'],
      requests: 4,
      run: async (s) => {
        const taken = await s.fixtures.target();
        const target = await createTarget(s, 'slug-move');
        const reply = await s.client.op('updateTarget', { targetId: target.id }, { body: { slug: taken.slug, name: `${target.name} moved` } });
        expectError(reply, 409, 'CONFLICT', SLUG_TAKEN);
        const fetched = await s.client.op('getTarget', { targetId: target.id });
        expectEqual(fetched.json, target.reply.json, `${SLUG_TAKEN}: the target is as it was`);
      },
    },
    {
      id: 'targets.delete',
      title: DELETE,
      level: 'strict',
      covers: ['deleteTarget', 'getTarget', 'createTarget'],
      requests: 7,
      run: async (s) => {
        const target = await createTarget(s, 'delete');
        expectNoContent(await s.client.op('deleteTarget', { targetId: target.id }), DELETE);
        expectError(await s.client.op('getTarget', { targetId: target.id }), 404, 'NOT_FOUND', `${DELETE}: GET of the deleted target`);
        expectError(await s.client.op('deleteTarget', { targetId: target.id }), 404, 'NOT_FOUND', `${DELETE}: a second DELETE`);
        const listed = (await newestIds(s, 'listTargets', 100)).map((t) => t.id);
        expectThat(!listed.includes(target.id), `${DELETE}: the deleted target is no longer listed`);
        const again = await s.client.op('createTarget', {}, { body: { name: target.name, slug: target.slug } });
        expectStatus(again, 201, `${DELETE}: a new target takes the freed slug ${target.slug}`);
        expectNoContent(await s.client.op('deleteTarget', { targetId: again.json.id }), `${DELETE} (the second target, cleaned up)`);
      },
    },
  ];
}
