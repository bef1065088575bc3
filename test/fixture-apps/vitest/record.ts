import { appendFileSync } from 'node:fs';

/** Tells the test that ran these specs which worker rendered what, and when (one JSON line each). */
export async function record(spec: string, html: string): Promise<void> {
  const file = process.env.FIXTURE_RECORD;
  if (file) appendFileSync(file, `${JSON.stringify({ spec, pid: process.pid, pool: process.env.VITEST_POOL_ID, html })}\n`);
}
