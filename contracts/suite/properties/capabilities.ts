import type { Check } from '../check.js';
import { expectSuccess } from '../checks/expect.js';
import { observeBuild } from '../build-observer.js';
import { ContractFailure, expectEqual, expectThat } from '../../shared/outcomes.js';
import type { Session } from '../session.js';
import { differences } from './round-trip.js';

export const BRAND_KIT = 'What the service does: "A target carries a brand kit (voice, tone, SEO preferences, press-release defaults)": a brand kit sent with its SEO preferences and press-release defaults is kept and read back as sent';

export const PRESS_RELEASE = 'What the service does: "Press-release output supports a dateline, quotes (modes: verbatim, polish, generate), boilerplate and a media contact": a press release asked with each is written with them (a verbatim quote word for word, each quote in its mode)';

const PRESS_OPTIONS = {
  dateline: { city: 'Lisbon', date: '2025-03-04' },
  quotes: [
    { speaker: 'Ada Example', title: 'Founder', text: 'We roast what we would drink ourselves.', mode: 'verbatim' },
    { speaker: 'Bo Example', title: 'Head roaster', text: 'um so the beans are like really fresh', mode: 'polish' },
    { speaker: 'Cy Example', title: 'Barista', mode: 'generate' },
  ],
  boilerplate: 'Example Coffee roasts in small batches in Lisbon.',
  mediaContact: { name: 'Ada Example', email: 'press@example.com' },
};

/**
 * The server does not take the shape openapi.yaml infers for a stated capability. At the
 * documented level that shape is a guess: the capability is unverified, a skip, never a pass.
 * At strict the shape is the contract itself, and refusing it or showing another is a failure.
 */
function unverified(s: Session, capability: string, why: string): void {
  if (s.strict) throw new ContractFailure(`${capability}: ${why}`);
  s.skipBecause(`unverified: ${why}`);
}

async function pressRelease(s: Session): Promise<void> {
  s.spend(2, 'a press release with every option');
  const target = await s.fixtures.target();
  const body = { targetId: target.id, buildType: 'single', kind: 'press_release', objective: `A press release about a new roastery (${s.config.runId})`, researchPolicy: 'none', pressRelease: PRESS_OPTIONS };
  const made = await s.client.op('createBuild', {}, { body });
  if (made.status === 400 || made.status === 422) return unverified(s, PRESS_RELEASE, `the server refuses the press-release options in the shape openapi.yaml infers (${made.text.slice(0, 160)})`);
  expectEqual(made.status, 202, `${PRESS_RELEASE}: createBuild (${made.text.slice(0, 160)})`);
  const run = await observeBuild(s, made.json.buildId, s.time.now(), s.fineStepMs);
  expectEqual(run.final.status, 'completed', `${PRESS_RELEASE}: the press release's build`);
  const [id] = run.final.deliverableIds;
  const read = await s.client.op('getDeliverable', { deliverableId: String(id) });
  expectSuccess(read, `${PRESS_RELEASE}: getDeliverable`);
  const data = read.json?.kindData ?? {};
  if (!('quotes' in data) || !('dateline' in data)) return unverified(s, PRESS_RELEASE, 'the deliverable shows the press release in another shape than openapi.yaml infers');
  expectThat(/lisbon/i.test(String(data.dateline)) && /2025/.test(String(data.dateline)), `${PRESS_RELEASE}: the dateline of Lisbon, 2025-03-04 is ${JSON.stringify(data.dateline)}`);
  const quotes = (data.quotes ?? []) as Array<{ speaker: string; text: string; mode: string }>;
  expectEqual(quotes.map((q) => [q.speaker, q.mode]), PRESS_OPTIONS.quotes.map((q) => [q.speaker, q.mode]), `${PRESS_RELEASE}: the quotes' speakers and modes`);
  expectEqual(quotes[0]?.text, PRESS_OPTIONS.quotes[0]!.text, `${PRESS_RELEASE}: the verbatim quote's text`);
  expectThat(quotes.slice(1).every((q) => typeof q.text === 'string' && q.text.length > 0), `${PRESS_RELEASE}: the polished and generated quotes have text`);
  expectEqual({ boilerplate: data.boilerplate, mediaContact: data.mediaContact }, { boilerplate: PRESS_OPTIONS.boilerplate, mediaContact: PRESS_OPTIONS.mediaContact }, `${PRESS_RELEASE}: the boilerplate and media contact`);
}

/**
 * A capability the spec states through a request shape openapi.yaml infers (the names of the
 * SEO and press-release fields): checked at the documented level when the server takes that
 * shape, and skipped as unverified, never passed, when it refuses it (at strict, where that shape
 * is the contract, a refusal fails).
 */
export function capabilityChecks(): Check[] {
  return [
    {
      id: 'capabilities.press-release',
      title: PRESS_RELEASE,
      level: 'documented',
      groups: ['spend', 'wait'],
      covers: ['createBuild', 'getDeliverable'],
      requests: 80,
      run: pressRelease,
    },
    {
      id: 'capabilities.brand-kit',
      title: BRAND_KIT,
      level: 'documented',
      covers: ['createTarget', 'getTarget'],
      requests: 4,
      run: async (s) => {
        const brandKit = {
          voice: 'Plain and exact',
          tone: 'Warm',
          seo: { primaryKeywords: ['cold brew', 'coffee at home'], secondaryKeywords: ['grind size'], metaDescriptionMaxLength: 155 },
          pressRelease: { boilerplate: 'Example Coffee roasts in small batches.', mediaContact: { name: 'Ada Example', email: 'press@example.com' }, datelineCity: 'Lisbon', defaultQuoteMode: 'polish' },
        };
        const made = await s.client.op('createTarget', {}, { body: { ...s.newTargetName('brand-kit'), description: 'A target with a whole brand kit.', brandKit } });
        if (made.status === 400 || made.status === 422) return unverified(s, BRAND_KIT, `the server refuses the brand kit in the shape openapi.yaml infers (${made.text.slice(0, 160)})`);
        expectSuccess(made, `${BRAND_KIT}: createTarget`);
        try {
          const read = await s.client.op('getTarget', { targetId: String(made.json.id) });
          expectSuccess(read, `${BRAND_KIT}: getTarget`);
          // A server that drops the parts silently took another shape (names of its own): unverified at documented, failed at strict.
          const kept = read.json?.brandKit ?? {};
          if (!('seo' in kept) || !('pressRelease' in kept)) return unverified(s, BRAND_KIT, `the brand kit read back has no ${'seo' in kept ? 'pressRelease' : 'seo'}: the server takes another shape than openapi.yaml infers`);
          const problems = differences(brandKit, kept, {}, 'brandKit');
          if (problems.length) throw new ContractFailure(`${BRAND_KIT}: ${problems.slice(0, 3).join('; ')}`);
        } finally {
          await s.client.op('deleteTarget', { targetId: String(made.json.id) });
        }
      },
    },
  ];
}
