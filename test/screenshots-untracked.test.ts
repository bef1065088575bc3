import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { screenshotPath } from './support/artifacts.js';

/**
 * A test run leaves `git status` clean: the pictures tests take go to names git ignores
 * (test/support/artifacts.ts), and the ones the repository keeps to be looked at change only
 * when refreshed on purpose.
 */
const root = fileURLToPath(new URL('..', import.meta.url));
const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' });

function testFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules' || entry.name === 'runtimes') return [];
    const path = join(dir, entry.name);
    return entry.isDirectory() ? testFiles(path) : /\.(ts|mts|js|mjs)$/.test(entry.name) ? [path] : [];
  });
}

describe('screenshots taken by the tests', () => {
  it('every one is written through screenshotPath or outside the repository\'s tracked files', () => {
    const offenders = testFiles('test').flatMap((file) => {
      const text = readFileSync(join(root, file), 'utf8');
      return [...text.matchAll(/\.screenshot\(\{[^}]*?path:\s*([^,}]+)/g)]
        .map((m) => m[1]!.trim())
        .filter((path) => !path.startsWith('screenshotPath(') && !path.includes('REPORTS'))
        .map((path) => `${file}: ${path}`);
    });
    expect(offenders).toEqual([]);
  });

  it('names git ignores, and the repository tracks pictures only under test/artifacts/kept/', () => {
    const written = relative(root, screenshotPath('dashboard-journal-1280'));
    expect(git('check-ignore', '--no-index', written).trim()).toBe(written);
    const tracked = git('ls-files', 'test/artifacts').split('\n').filter(Boolean);
    expect(tracked.length).toBeGreaterThan(0);
    for (const file of tracked) expect(file).toMatch(/^test\/artifacts\/kept\/[^/]+\.png$/);
  });
});
