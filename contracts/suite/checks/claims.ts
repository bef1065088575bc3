import type { Check } from '../check.js';
import { expectEqual } from '../../shared/outcomes.js';

export const CLAIMS = 'openapi.yaml: Claim: confidence has two decimals, >= 0.7 for supported, 0.4-0.69 for weak, < 0.4 for unsupported; sourceIds cites 1-3 sources for supported, exactly 1 for weak, none for unsupported';

interface Claim {
  id: string;
  verdict: string;
  confidence: number;
  sourceIds: string[];
}

/** The verdict a confidence stands for (openapi.yaml, Claim.confidence). */
const verdictOf = (confidence: number) => (confidence >= 0.7 ? 'supported' : confidence >= 0.4 ? 'weak' : 'unsupported');
const cites: Record<string, (n: number) => boolean> = { supported: (n) => n >= 1 && n <= 3, weak: (n) => n === 1, unsupported: (n) => n === 0 };

/** Each entry of a deliverable's claim ledger agrees with itself: its verdict, its confidence and the sources it cites. */
export function claimChecks(): Check[] {
  return [
    {
      id: 'deliverables.claims',
      title: CLAIMS,
      level: 'strict',
      groups: ['spend', 'wait'],
      covers: ['getDeliverable'],
      requests: 65,
      run: async (s) => {
        const { reply } = await s.fixtures.deliverable();
        const claims = (reply.json?.claims ?? []) as Claim[];
        if (claims.length === 0) return s.skipBecause('the deliverable has no claims to read');
        const problems = claims.flatMap((c) => {
          const found: string[] = [];
          if (Math.abs(c.confidence * 100 - Math.round(c.confidence * 100)) > 1e-6) found.push(`confidence ${c.confidence} has more than two decimals`);
          if (verdictOf(c.confidence) !== c.verdict) found.push(`verdict ${c.verdict} with confidence ${c.confidence}`);
          if (!cites[c.verdict]?.(c.sourceIds.length)) found.push(`verdict ${c.verdict} citing ${c.sourceIds.length} source(s)`);
          return found.map((p) => `claim ${c.id}: ${p}`);
        });
        expectEqual(problems, [], `${CLAIMS}: claims that disagree with themselves`);
      },
    },
  ];
}
