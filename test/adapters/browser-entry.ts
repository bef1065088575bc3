/**
 * The page script of the every-adapter test in Chromium (bundled by esbuild): the simulator
 * behind msw's service worker, at `/sim` on the page's origin, driven by the same script as
 * every other adapter. The outcome is left on `window.outcome`.
 */
import { setupWorker } from 'msw/browser';
import { createMswHandlers } from '../../src/adapters/msw.js';
import { createSimulator } from '../../src/simulator.js';
import { runSurfaceScript, type Reply } from './surface-script.js';

async function main(): Promise<{ replies?: Reply[]; error?: string }> {
  const base = `${location.origin}/sim`;
  const simulator = createSimulator({ frozenAt: Date.parse('2026-03-02T09:00:00.000Z'), publicUrl: base, onFault: () => {} });
  const worker = setupWorker(...createMswHandlers(simulator, { baseUrl: base }));
  await worker.start({ quiet: true, onUnhandledRequest: 'bypass' });
  return { replies: await runSurfaceScript(base, simulator.keys.readWrite) };
}

(window as unknown as { outcome: Promise<unknown> }).outcome = main().catch((error: unknown) => ({ error: String((error as Error)?.stack ?? error) }));
