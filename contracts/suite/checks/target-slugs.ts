import type { Check } from '../check.js';
import { createTarget } from '../fixtures.js';
import { expectEqual } from '../../shared/outcomes.js';
import { expectError, expectStatus } from './expect.js';

const SLUG_MOVES = 'openapi.yaml: a PATCH to a free slug moves the target there: the new slug is then taken (409 CONFLICT for another target) and the old one free again';

/** A target's slug after a PATCH: unique within the account, at its new place and no longer at its old one. */
export function targetSlugChecks(): Check[] {
  return [
    {
      id: 'targets.slug-moves',
      title: SLUG_MOVES,
      level: 'strict',
      covers: ['updateTarget', 'createTarget'],
      requests: 5,
      run: async (s) => {
        const target = await createTarget(s, 'slug-from');
        const moved = s.newTargetName('slug-to');
        const reply = await s.client.op('updateTarget', { targetId: target.id }, { body: { slug: moved.slug } });
        expectStatus(reply, 200, SLUG_MOVES);
        expectEqual(reply.json.slug, moved.slug, `${SLUG_MOVES}: the slug answered`);
        const body = (slug: string) => ({ name: `${target.name} again`, slug, description: 'Created by the contract suite', brandKit: { voice: 'expert', tone: 'warm' } });
        const onNew = await s.client.op('createTarget', {}, { body: body(moved.slug) });
        expectError(onNew, 409, 'CONFLICT', `${SLUG_MOVES}: a target created at the new slug`);
        const onOld = await s.client.op('createTarget', {}, { body: body(target.slug) });
        expectStatus(onOld, 201, `${SLUG_MOVES}: a target created at the old slug`);
      },
    },
  ];
}
