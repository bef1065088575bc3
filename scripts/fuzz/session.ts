import { ContractValidator } from '../../contracts/shared/contract-validator.js';
import { CONTRACT_FILES, readContractDocument } from '../../contracts/shared/openapi-model.js';
import { count, fuzzDocument, type DocumentResult, type FuzzBudget } from './runner.js';
import { startSimulator } from './simulator.js';

export interface FuzzOutcome {
  documents: DocumentResult[];
  /** Whether the simulator still answered /healthz after the run. */
  healthyAfter: boolean;
  /** What the simulator wrote to stderr: an unexpected exception is logged there. */
  stderr: string;
  failed: boolean;
}

/**
 * One fuzzing run: a fresh CLI simulator on loopback, the service contract fuzzed with the
 * seeded read+write key, then the control contract (last: it resets and restores state),
 * every response checked against both documents at the strict level.
 */
export async function runFuzz(budget: FuzzBudget, options: { only?: 'service' | 'control'; rateLimits?: boolean } = {}): Promise<FuzzOutcome> {
  const { only, rateLimits } = options;
  const sim = await startSimulator({ rateLimits });
  try {
    const validator = ContractValidator.fromFiles(CONTRACT_FILES);
    const { readWrite, revoked } = sim.keys;
    const credentials = {
      good: `Bearer ${readWrite}`,
      // Each refused whatever the operation: none, the wrong scheme, malformed, unknown, revoked.
      others: [undefined, `Basic ${Buffer.from('user:pass').toString('base64')}`, 'Bearer', `Bearer ${readWrite}x`, readWrite, `Bearer svc_live_${'0'.repeat(40)}`, `Bearer ${revoked}`, `Bearer ${readWrite}, Bearer ${readWrite}`],
    };
    const documents: DocumentResult[] = [];
    for (const id of ['service', 'control'] as const) {
      if (only && only !== id) continue;
      const doc = structuredClone(readContractDocument(CONTRACT_FILES[id]));
      documents.push(await fuzzDocument({ id: id === 'service' ? 'openapi.yaml' : 'simulator-control.yaml', doc }, sim.baseUrl, validator, credentials, budget));
    }
    const healthyAfter = sim.alive() && (await fetch(`${sim.baseUrl}/healthz`).then((r) => r.ok, () => false));
    const failed = !healthyAfter || documents.some((d) => count(d.serverErrors) + count(d.violations) + count(d.transport) + count(d.acceptedInvalid) + count(d.stateful) > 0);
    return { documents, healthyAfter, stderr: sim.stderr(), failed };
  } finally {
    await sim.stop();
  }
}
