/**
 * `npm test` is never silent for long: its progress reporter prints, at its interval, how many
 * files are done, what passed so far and which file runs and for how long.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

it('prints a progress line while a slow file runs, naming it', async () => {
  const { stdout } = await promisify(execFile)(`${root}node_modules/.bin/vitest`, ['run', '-c', 'test/fixture-apps/progress/vitest.config.ts'], {
    cwd: root,
    env: { ...process.env, NO_COLOR: '1', TEST_PROGRESS_EVERY_MS: '200' },
  });
  const beats = stdout.split('\n').filter((line) => line.startsWith('[progress '));
  expect(beats.length).toBeGreaterThan(0);
  // A beat while the slow test waits names the file; one may also come after it ended.
  expect(beats.some((line) => /^\[progress \d+s\] 0\/1 files · [12] passed, 0 failed, 0 skipped · running: slow\.spec\.ts \(\d+s\)$/.test(line)), beats.join('\n')).toBe(true);
});
