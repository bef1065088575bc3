import type { Check } from '../check.js';

export const MODEL_CHECK_ID = 'model-based.sequences';
const TITLE = 'Model-based: random sequences of calls over several accounts and keys (builds, Idempotency-Key replays with the same and another body, concurrent firsts, reads with other keys and accounts, clock moves, key rotation and revocation, purchases, failures, MCP) answer as an independent model of the API predicts';

/**
 * The model-based phase as a check of the suite. It runs at both levels, the model holding
 * the server to what the level may judge; fast-check is loaded only when it starts, so that
 * a run without it starts as fast as before.
 */
export function modelPhaseCheck(): Check {
  return {
    id: MODEL_CHECK_ID,
    title: TITLE,
    level: 'documented',
    groups: ['spend'],
    requests: 60,
    run: async (session) => (await import('./phase.js')).runModelPhase(session),
  };
}
