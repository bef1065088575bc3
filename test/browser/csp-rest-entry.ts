/**
 * The page script of the REST bundle's browser test: msw's worker answering through the
 * REST-only bundle (imported by its package path), under `script-src 'self'`.
 */
import { setupWorker } from 'msw/browser';
// Resolved by the test to the built bundle (what 'content-service-simulator/msw/rest' is), not to this source.
import { restSimulatorHandlers, shippedScenarios } from '../../src/adapters/msw-rest.js';

interface Outcome {
  evalBlocked: boolean;
  violations: string[];
  replies: Array<{ method: string; path: string; status: number; headers: Record<string, string>; text: string }>;
  error?: string;
}

const violations: string[] = [];
document.addEventListener('securitypolicyviolation', (e) => violations.push(`${e.violatedDirective}: ${e.blockedURI || e.sourceFile}`));

async function main(): Promise<Outcome> {
  let evalBlocked = false;
  try {
    new Function('return 1')();
  } catch {
    evalBlocked = true;
  }
  const { simulator, handlers } = restSimulatorHandlers({ baseUrl: location.origin, scenarios: [shippedScenarios['build-in-every-state']] });
  const worker = setupWorker(...handlers);
  await worker.start({ quiet: true, onUnhandledRequest: 'bypass' });
  const loaded = simulator.scenarios[0]!.accounts.user!;
  const key = loaded.keys.default!;
  const call = async (method: string, path: string, body?: unknown, auth = true) => {
    const headers: Record<string, string> = { ...(auth ? { authorization: `Bearer ${key}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) };
    const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    return { method, path, status: response.status, headers: Object.fromEntries(response.headers), text: await response.text() };
  };
  const replies = [
    await call('GET', '/api/v1/builds?limit=10'),
    await call('GET', `/api/v1/builds/${loaded.builds.completed!.buildId}`),
    await call('GET', `/api/v1/deliverables/${loaded.builds.completed!.deliverableIds[0]}/download?format=md`),
    await call('POST', '/api/v1/targets', { name: '', slug: 'Not A Slug' }),
    await call('POST', '/_sim/scenarios', shippedScenarios['empty-balance'], false),
    await call('GET', '/_sim/scenarios', undefined, false),
    await call('POST', '/_sim/reset', {}, false),
  ];
  return { evalBlocked, violations, replies };
}

(window as unknown as { outcome: Promise<Outcome> }).outcome = main().catch((e: Error) => ({ evalBlocked: false, violations, replies: [], error: String(e?.stack ?? e) }));
