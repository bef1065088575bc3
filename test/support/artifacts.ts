import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const artifacts = fileURLToPath(new URL('../artifacts/', import.meta.url));

/** Set to refresh the pictures kept in the repository (test/artifacts/kept/), to commit on purpose. */
export const keepScreenshots = process.env.KEEP_SCREENSHOTS === '1';

/**
 * Where a test writes a picture to look at: `test/artifacts/<name>.png`, which git ignores, so
 * a test run leaves no tracked file modified. With KEEP_SCREENSHOTS=1, the picture goes to
 * `test/artifacts/kept/<name>.png` instead, the copy the repository keeps.
 */
export function screenshotPath(name: string): string {
  const dir = keepScreenshots ? join(artifacts, 'kept') : artifacts;
  mkdirSync(dir, { recursive: true });
  return join(dir, `${name}.png`);
}
