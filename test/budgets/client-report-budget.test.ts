import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * What the client report adds to a request, as a count of bytes (the timed comparison is
 * bench/client-report.bench.ts): the heap the report allocates judging one exchange, measured in
 * a fresh process by client-report-probe.ts, fed as the engine feeds it (the account and the real
 * time handed with the exchange). Today, by Node version: 2 to 4 B (Node 20 and 22), 36 to 68 B
 * (26 and 24) for a build read judged as a poll, nothing for a balance read, 16 B for a creation;
 * 20 to 52 B and 32 B while the report read the real clock itself, and 927, 0 and 384 B when a
 * poll searched the build's answer for its status (flattening the string the engine made) and
 * each creation's key took an object and a Map entry.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));

const POLL_BYTES = 96;
const READ_BYTES = 16;
const CREATE_BYTES = 48;

describe('client report budget (heap counts in a fresh process)', () => {
  it('judging a build read, a balance read and a creation allocates at most a few heap numbers', () => {
    const text = execFileSync(process.execPath, ['--expose-gc', '--max-semi-space-size=64', '--import', 'tsx', `${root}test/budgets/client-report-probe.ts`], { cwd: root, encoding: 'utf8' });
    const bytes = JSON.parse(text.trim().split('\n').at(-1)!) as Record<string, number>;
    // The feed was judged: the polls of a build on a frozen clock are found too fast.
    expect(bytes.getBuildFindings).toBe(1);
    expect(bytes.createFindings).toBe(0);
    expect(bytes.getBuild).toBeLessThanOrEqual(POLL_BYTES);
    expect(bytes.getBalance).toBeLessThanOrEqual(READ_BYTES);
    expect(bytes.create).toBeLessThanOrEqual(CREATE_BYTES);
  }, 60_000);
});
