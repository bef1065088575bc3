import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSimulator } from '../simulator.js';
import type { BuildStatusGoal } from './types.js';

const STATUSES: BuildStatusGoal[] = ['pending', 'researching', 'drafting', 'critiquing', 'merging', 'completed', 'failed'];
const STAGES = ['researching', 'drafting', 'critiquing', 'merging'] as const;

describe('builds placed at their statuses', () => {
  it('each build of any mix is at its stated status once loaded, at the stated now', () => {
    const build = fc.record({
      status: fc.constantFrom(...STATUSES),
      failedAt: fc.constantFrom(...STAGES),
      pages: fc.integer({ min: 1, max: 4 }),
      qualityMode: fc.constantFrom('standard', 'premium'),
      researchPolicy: fc.constantFrom('required', 'optional', 'none'),
    });
    fc.assert(
      fc.property(fc.array(build, { minLength: 1, maxLength: 8 }), fc.constantFrom('fast', 'realistic'), (builds, speed) => {
        const sim = createSimulator({ speed: speed as 'fast' | 'realistic' });
        const loaded = sim.loadScenario({
          scenario: 'mix',
          accounts: [{
            name: 'user',
            balance: 200,
            clock: { at: '2026-02-01T12:00:00Z' },
            targets: [{ name: 'Acme', slug: 'acme' }],
            builds: builds.map((b, i) => ({
              name: `b${i}`,
              target: 'acme',
              kind: 'blog',
              objective: `Post ${i}`,
              status: b.status,
              ...(b.status === 'failed' ? { failedAt: b.failedAt } : {}),
              ...(b.pages > 1 ? { buildType: 'suite', pages: b.pages } : {}),
              qualityMode: b.qualityMode,
              researchPolicy: b.researchPolicy,
            })),
          }],
        }).accounts.user!;
        expect(loaded.now).toBe('2026-02-01T12:00:00.000Z');
        const key = loaded.keys.default!;
        for (const [i, b] of builds.entries()) {
          const view = JSON.parse(sim.handle({ method: 'GET', url: `/api/v1/builds/${loaded.builds[`b${i}`]!.buildId}`, headers: { authorization: `Bearer ${key}` } }).body as string);
          expect(view.build.status).toBe(b.status);
        }
        const balance = JSON.parse(sim.handle({ method: 'GET', url: '/api/v1/tokens/balance', headers: { authorization: `Bearer ${key}` } }).body as string);
        expect(balance.balance).toBe(200);
      }),
      { numRuns: 25, seed: 31 },
    );
  });
});
