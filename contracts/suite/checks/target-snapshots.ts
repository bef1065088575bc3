import { randomBytes } from 'node:crypto';
import { observeBuilds } from '../build-observer.js';
import type { Check } from '../check.js';
import { expectEqual, expectThat } from '../../shared/outcomes.js';
import type { Session } from '../session.js';
import { expectStatus } from './expect.js';

/**
 * A build writes for its target as the target is when the build is made: an edit reaches the
 * builds made after it, and the builds made before keep the target as it was.
 */
export const AS_IT_WAS = 'openapi.yaml: updateTarget: Builds already made keep the target as it was; a build made after an edit writes for the target as edited (its name, and its site from the slug, in the content)';

export const BRAND_KIT_DEFAULTS = "openapi.yaml: updateTarget, PressReleaseOptions: a press release left without dateline city, boilerplate and media contact takes them from the brand kit's pressRelease defaults as the target is when the build is made: an edit of the brand kit alone reaches the builds made after it, and the builds made before keep the defaults as they were";

/** The brand kit's press-release defaults before and after the edit (BrandKitInput.pressRelease). */
const DEFAULTS = [
  { datelineCity: 'Lisbon', boilerplate: 'Alder Roasters roasts coffee in Lisbon.', mediaContact: { name: 'Ada Example', email: 'ada@example.com' } },
  { datelineCity: 'Porto', boilerplate: 'Alder Roasters roasts coffee in Porto.', mediaContact: { name: 'Bo Example', email: 'bo@example.com' } },
];

async function build(s: Session, targetId: string, label: string, kind = 'blog', rule = AS_IT_WAS): Promise<{ buildId: string; createdAt: number }> {
  const reply = await s.client.op('createBuild', {}, { body: { targetId, kind, objective: `Brewing guide ${label} (${s.config.runId})`, ...(kind === 'blog' ? {} : { researchPolicy: 'none' }) } });
  expectStatus(reply, 202, `${rule}: POST /api/v1/builds (${label})`);
  return { buildId: reply.json.buildId, createdAt: s.time.now() };
}

async function markdown(s: Session, deliverableId: string): Promise<string> {
  const md = await s.client.op('downloadDeliverable', { deliverableId }, { query: { format: 'md' } });
  expectStatus(md, 200, `${AS_IT_WAS}: the deliverable as Markdown`);
  return md.text;
}

export function targetSnapshotChecks(): Check[] {
  return [
    {
      id: 'targets.edits-reach-new-builds',
      title: AS_IT_WAS,
      level: 'strict',
      groups: ['spend', 'wait'],
      covers: ['updateTarget', 'createBuild', 'downloadDeliverable'],
      requests: 150,
      run: async (s) => {
        s.spend(3, 'a build before and after each of two target edits');
        const tag = randomBytes(3).toString('hex');
        const names = [`Alder${tag} Roasters`, `Birch${tag} Roasters`];
        const slugs = [`alder-${tag}`, `birch-${tag}`];
        const created = await s.client.op('createTarget', {}, { body: { name: names[0], slug: slugs[0], description: 'Roasts coffee.', brandKit: { voice: 'expert', tone: 'warm' } } });
        expectStatus(created, 201, `${AS_IT_WAS}: POST /api/v1/targets`);
        const targetId = created.json.id as string;
        const before = await build(s, targetId, 'before the edits');
        expectStatus(await s.client.op('updateTarget', { targetId }, { body: { name: names[1] } }), 200, `${AS_IT_WAS}: PATCH the name`);
        const renamed = await build(s, targetId, 'after the new name');
        expectStatus(await s.client.op('updateTarget', { targetId }, { body: { slug: slugs[1] } }), 200, `${AS_IT_WAS}: PATCH the slug`);
        const moved = await build(s, targetId, 'after the new slug');
        const runs = await observeBuilds(s, [before, renamed, moved], s.fineStepMs * 4);
        expectEqual(runs.map((r) => r.final.status), ['completed', 'completed', 'completed'], `${AS_IT_WAS}: the three builds complete`);
        // One after another: the suite's calls on a key stay in order, as a proxy in front judges their windows.
        const texts: string[] = [];
        for (const r of runs) texts.push(await markdown(s, r.final.deliverableIds[0] as string));
        // [name shown, slug shown] in each build's content, as the target was when it was made.
        const expected = [[0, 0], [1, 0], [1, 1]];
        texts.forEach((text, i) => {
          const [name, slug] = expected[i] as [number, number];
          const which = ['before the edits', 'after the new name', 'after the new slug'][i];
          expectThat(text.includes(names[name]!) && !text.includes(names[1 - name]!), `${AS_IT_WAS}: the build made ${which} names ${names[name]} and not ${names[1 - name]}`);
          expectThat(text.includes(slugs[slug]!) && !text.includes(slugs[1 - slug]!), `${AS_IT_WAS}: the build made ${which} shows the site of ${slugs[slug]} and not of ${slugs[1 - slug]}`);
        });
      },
    },
    {
      id: 'targets.brand-kit-reaches-new-builds',
      title: BRAND_KIT_DEFAULTS,
      level: 'strict',
      groups: ['spend', 'wait'],
      covers: ['updateTarget', 'createBuild', 'getDeliverable'],
      requests: 60,
      run: async (s) => {
        s.spend(4, 'a press release before and after an edit of the brand kit');
        const made = await s.client.op('createTarget', {}, { body: { ...s.newTargetName('brand-kit-edit'), brandKit: { pressRelease: DEFAULTS[0] } } });
        expectStatus(made, 201, `${BRAND_KIT_DEFAULTS}: POST /api/v1/targets`);
        const targetId = made.json.id as string;
        const before = await build(s, targetId, 'before the brand kit edit', 'press_release', BRAND_KIT_DEFAULTS);
        const edited = await s.client.op('updateTarget', { targetId }, { body: { brandKit: { pressRelease: DEFAULTS[1] } } });
        expectStatus(edited, 200, `${BRAND_KIT_DEFAULTS}: PATCH the brand kit's pressRelease`);
        const after = await build(s, targetId, 'after the brand kit edit', 'press_release', BRAND_KIT_DEFAULTS);
        const runs = await observeBuilds(s, [before, after], s.fineStepMs * 4);
        expectEqual(runs.map((r) => r.final.status), ['completed', 'completed'], `${BRAND_KIT_DEFAULTS}: the two press releases complete`);
        for (const [i, r] of runs.entries()) {
          const which = i === 0 ? 'before' : 'after';
          const read = await s.client.op('getDeliverable', { deliverableId: r.final.deliverableIds[0] as string });
          expectStatus(read, 200, `${BRAND_KIT_DEFAULTS}: the press release made ${which} the edit`);
          const data = read.json?.kindData ?? {};
          const { datelineCity, boilerplate, mediaContact } = DEFAULTS[i]!;
          expectThat(String(data.dateline).toLowerCase().includes(datelineCity.toLowerCase()), `${BRAND_KIT_DEFAULTS}: the press release made ${which} the edit has the dateline of ${datelineCity}: got ${JSON.stringify(data.dateline)}`);
          expectEqual({ boilerplate: data.boilerplate, mediaContact: data.mediaContact }, { boilerplate, mediaContact }, `${BRAND_KIT_DEFAULTS}: the boilerplate and media contact of the press release made ${which} the edit`);
          const quotes = (Array.isArray(data.quotes) ? data.quotes : []) as Array<{ text?: unknown }>;
          expectThat(quotes.length > 0 && quotes.every((q) => typeof q.text === 'string' && q.text.length > 0), `${BRAND_KIT_DEFAULTS}: a press release sent without quotes has one generated: got ${JSON.stringify(data.quotes)}`);
        }
      },
    },
  ];
}
