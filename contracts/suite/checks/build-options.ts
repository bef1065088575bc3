import { observeBuild } from '../build-observer.js';
import type { Check } from '../check.js';
import { createTarget } from '../fixtures.js';
import { expectEqual, expectThat } from '../../shared/outcomes.js';
import type { Session } from '../session.js';
import { expectStatus } from './expect.js';

/** Options of a build request that its content must show, read from the completed deliverable. */
export const PLATFORMS = 'openapi.yaml: BuildCreate.socialPlatforms: the platforms a social build writes posts for: one post per platform asked, no other';
export const SOCIAL_POSTS = 'openapi.yaml: SocialPost: `text` includes the hashtags and `characterCount` (its code points) never exceeds `limit`';
export const ECHOED = 'openapi.yaml: Build.socialPlatforms, Build.libraryItemIds: as given at creation; present only when it was';
export const LIBRARY_ITEMS = 'openapi.yaml: BuildCreate.libraryItemIds: library items of the build\'s target to use in the content (a CTA or blurb appears in it)';

/** Builds `body` to completion: its deliverable, once the build shows the option `echoed` as it was sent (openapi.yaml, Build: as given at creation). */
async function completedDeliverable(s: Session, body: Record<string, unknown>, rule: string, echoed: string): Promise<string> {
  const created = await s.client.op('createBuild', {}, { body });
  expectStatus(created, 202, `${rule}: POST /api/v1/builds`);
  const run = await observeBuild(s, created.json.buildId, s.time.now(), s.fineStepMs * 4);
  expectEqual(run.final.status, 'completed', `${rule}: the build completes`);
  expectEqual(run.final.body.build[echoed], body[echoed], `${ECHOED}: the build's ${echoed}`);
  return run.final.deliverableIds[0] as string;
}

export function buildOptionChecks(): Check[] {
  return [
    {
      id: 'builds.platforms-in-content',
      title: PLATFORMS,
      level: 'strict',
      groups: ['spend', 'wait'],
      covers: ['createBuild', 'getDeliverable'],
      requests: 80,
      run: async (s) => {
        s.spend(1, 'a social build for one platform');
        const target = await s.fixtures.target();
        // One platform, and not the first of the default pair: a server that ignores the option shows more.
        const id = await completedDeliverable(s, { targetId: target.id, kind: 'social', objective: `Launch posts for a coffee grinder (${s.config.runId})`, socialPlatforms: ['linkedin'] }, PLATFORMS, 'socialPlatforms');
        const full = await s.client.op('getDeliverable', { deliverableId: id });
        expectStatus(full, 200, `${PLATFORMS}: GET /api/v1/deliverables/:id`);
        const posts = (full.json.kindData?.posts ?? []) as Array<{ platform: string; text: string; hashtags: string[]; characterCount: number; limit: number }>;
        expectEqual(posts.map((p) => p.platform), ['linkedin'], `${PLATFORMS}: the platforms of the posts`);
        for (const p of posts) {
          expectEqual(p.characterCount, [...p.text].length, `${SOCIAL_POSTS}: characterCount of the ${p.platform} post is the code points of its text`);
          expectThat(p.characterCount <= p.limit, `${SOCIAL_POSTS}: the ${p.platform} post has ${p.characterCount} characters, over its limit ${p.limit}`);
          const missing = p.hashtags.filter((h) => !p.text.includes(h));
          expectEqual(missing, [], `${SOCIAL_POSTS}: hashtags of the ${p.platform} post missing from its text`);
        }
      },
    },
    {
      id: 'builds.library-in-content',
      title: LIBRARY_ITEMS,
      level: 'strict',
      groups: ['spend', 'wait'],
      covers: ['createBuild', 'downloadDeliverable'],
      requests: 80,
      run: async (s) => {
        s.spend(1, 'a blog build naming a library item');
        const target = await createTarget(s, 'library-content');
        const cta = { type: 'cta', name: 'Content CTA', content: `Book a roastery tour ${s.config.runId}`, url: `https://example.com/${s.config.runId}/tour` };
        const item = await s.client.op('createLibraryItem', { targetId: target.id }, { body: cta });
        expectStatus(item, 201, `${LIBRARY_ITEMS}: POST a call to action to the target's library`);
        const id = await completedDeliverable(s, { targetId: target.id, kind: 'blog', objective: `Why visit a roastery (${s.config.runId})`, libraryItemIds: [item.json.id] }, LIBRARY_ITEMS, 'libraryItemIds');
        const md = await s.client.op('downloadDeliverable', { deliverableId: id }, { query: { format: 'md' } });
        expectStatus(md, 200, `${LIBRARY_ITEMS}: the deliverable as Markdown`);
        expectThat(md.text.includes(cta.content), `${LIBRARY_ITEMS}: the Markdown does not show the call to action ${JSON.stringify(cta.content)}`);
      },
    },
  ];
}
