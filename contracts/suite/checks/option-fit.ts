import type { Check } from '../check.js';
import { createTarget, readBalance } from '../fixtures.js';
import { expectEqual } from '../../shared/outcomes.js';
import { expectError, expectStatus } from './expect.js';

export const OPTIONS_FIT = 'openapi.yaml: BuildCreate: `pressRelease` fits only kind `press_release`, `socialPlatforms` only kind `social`: on another kind the build is refused with 400 VALIDATION_ERROR, naming the option, and charges nothing; `libraryItemIds` fits every kind (a how-to build naming a library item is accepted)';

export const PAGES_FIT = 'openapi.yaml: BuildCreate: a `suite` build has 2 to 20 `pages`, a `single` build has one: a suite without pages, of 1 page or of 21, and a single build of 2 pages are refused with 400 VALIDATION_ERROR and charge nothing';

/** The options of a build that belong to one kind, sent with another (openapi.yaml, BuildCreate, if/then). */
export function optionFitChecks(): Check[] {
  return [
    {
      id: 'builds.options-fit-kind',
      title: OPTIONS_FIT,
      level: 'strict',
      groups: ['spend'],
      covers: ['createBuild'],
      requests: 8,
      run: async (s) => {
        s.spend(1, 'a how-to build naming a library item');
        const target = await createTarget(s, 'option-fit');
        const item = await s.client.op('createLibraryItem', { targetId: target.id }, { body: { type: 'product_blurb', name: 'Grinder', content: `A burr grinder for every brew (${s.config.runId})` } });
        expectStatus(item, 201, `${OPTIONS_FIT}: POST a product blurb to the target's library`);
        await s.client.ensureWindow('readWrite', 'createBuild', 3);
        const before = await readBalance(s);
        const misfits = [
          { option: 'socialPlatforms', body: { targetId: target.id, kind: 'blog', objective: `A blog post with social platforms (${s.config.runId})`, socialPlatforms: ['x'] } },
          { option: 'pressRelease', body: { targetId: target.id, kind: 'news', objective: `A news piece with press-release options (${s.config.runId})`, pressRelease: { datelineCity: 'Lisbon' } } },
        ];
        for (const { option, body } of misfits) {
          const reply = await s.client.op('createBuild', {}, { body });
          expectError(reply, 400, 'VALIDATION_ERROR', `${OPTIONS_FIT}: ${option} on a ${body.kind} build`);
          const paths = ((reply.json?.details?.fields ?? []) as Array<{ path: string }>).map((f) => f.path);
          expectEqual(paths.some((p) => p.includes(option)), true, `${OPTIONS_FIT}: details.fields names ${option} (got ${JSON.stringify(paths)})`);
        }
        expectEqual(await readBalance(s), before, `${OPTIONS_FIT}: the balance after the refused builds`);
        const fits = await s.client.op('createBuild', {}, { body: { targetId: target.id, kind: 'how_to', objective: `How to grind coffee (${s.config.runId})`, libraryItemIds: [item.json.id] } });
        expectStatus(fits, 202, `${OPTIONS_FIT}: libraryItemIds on a how_to build`);
      },
    },
    {
      id: 'builds.pages-fit-type',
      title: PAGES_FIT,
      level: 'strict',
      covers: ['createBuild'],
      requests: 8,
      run: async (s) => {
        const target = await s.fixtures.target();
        await s.client.ensureWindow('readWrite', 'createBuild', 4);
        const before = await readBalance(s);
        const base = { targetId: target.id, kind: 'blog', objective: `Pages that do not fit the build type (${s.config.runId})` };
        const misfits: Array<[string, Record<string, unknown>]> = [
          ['a suite without pages', { buildType: 'suite' }],
          ['a suite of 1 page', { buildType: 'suite', pages: 1 }],
          ['a suite of 21 pages', { buildType: 'suite', pages: 21 }],
          ['a single build of 2 pages', { buildType: 'single', pages: 2 }],
        ];
        for (const [what, fields] of misfits) expectError(await s.client.op('createBuild', {}, { body: { ...base, ...fields } }), 400, 'VALIDATION_ERROR', `${PAGES_FIT}: ${what}`);
        expectEqual(await readBalance(s), before, `${PAGES_FIT}: the balance after the refused builds`);
      },
    },
  ];
}
