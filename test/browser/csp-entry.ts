/**
 * The page script of the strict-CSP browser test (bundled by esbuild): the msw handlers in a
 * service worker, answering through the simulator's engine, under `script-src 'self'`.
 */
import { setupWorker } from 'msw/browser';
import { createMswHandlers } from '../../src/adapters/msw.js';
import { createSimulator } from '../../src/simulator.js';

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
    evalBlocked = true; // the policy is in force: ajv could not compile a validator here
  }
  const simulator = createSimulator({ frozenAt: Date.parse('2026-03-02T09:00:00.000Z') });
  const worker = setupWorker(...createMswHandlers(simulator, { baseUrl: location.origin }));
  await worker.start({ quiet: true, onUnhandledRequest: 'bypass' });
  const headers = { authorization: `Bearer ${simulator.keys.readWrite}`, 'content-type': 'application/json' };
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    return { method, path, status: response.status, headers: Object.fromEntries(response.headers), text: await response.text() };
  };
  const replies = [
    await call('GET', '/api/v1/tokens/balance'),
    await call('POST', '/api/v1/targets', { name: 'Acme', slug: 'acme', brandKit: { voice: 'plain', tone: 'warm' } }),
    await call('POST', '/api/v1/targets', { name: '', slug: 'Not A Slug' }),
    await call('GET', '/api/v1/targets?limit=0'),
  ];
  return { evalBlocked, violations, replies };
}

(window as unknown as { outcome: Promise<Outcome> }).outcome = main().catch((e: Error) => ({ evalBlocked: false, violations, replies: [], error: String(e?.stack ?? e) }));
