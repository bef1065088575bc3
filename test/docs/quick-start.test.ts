import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseServeOptions } from '../../src/cli/options.js';
import { assertContract } from '../support/contract.js';
import { fencedBlocks, root } from './markdown.js';

/**
 * The README's quick start is marked illustrative (one command serves until stopped, the other
 * is the whole suite), so it is held true here instead: the commands are the package's own
 * scripts, CI runs the install and the test command, and `npm start` serves the seeded keys the
 * README lists on the default address.
 */
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const section = readme.slice(readme.indexOf('## Quick start'), readme.indexOf('\n## ', readme.indexOf('## Quick start') + 3));
const commands = fencedBlocks(section, 'README.md')[0]!
  .code.split('\n')
  .map((line) => line.replace(/#.*/, '').trim())
  .filter(Boolean);
const ciScript = readFileSync(join(root, '.ci/run'), 'utf8').split('\n').map((line) => line.trim());
const scripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

describe("the README's quick start", () => {
  it('is two commands: install and start, and the whole suite', () => {
    expect(commands).toEqual(['npm install && npm start', 'npm test']);
  });

  it('is what CI runs: an install from the lockfile, then npm test', () => {
    expect(ciScript.some((line) => /^npm (ci|install)\b/.test(line)), 'an npm install in .ci/run').toBe(true);
    expect(ciScript).toContain('npm test');
  });

  it('starts the built simulator, which the install builds', () => {
    expect(scripts.prepare).toBe('npm run build');
    expect(scripts.start).toMatch(/node dist\/cli\/main\.js serve$/);
    expect(scripts.test).toMatch(/vitest run/);
  });

  it('serves on http://127.0.0.1:4010 by default, as the comment says', () => {
    expect(section).toContain('npm start     # serves the simulator on http://127.0.0.1:4010');
    expect(parseServeOptions([], {})).toMatchObject({ port: 4010, host: '127.0.0.1' });
  });

  it('npm start serves the seeded keys the README lists, and answers /healthz', async () => {
    const listed = [...readme.slice(readme.indexOf('## Seeded keys')).matchAll(/`(svc_live_[0-9a-f]{40})`/g)].map((m) => m[1]!);
    expect(listed).toHaveLength(5);
    // A free port instead of 4010, which another process of the machine may hold; nothing else changes.
    const child = spawn('npm', ['start', '--silent', '--', '--port', '0', '--quiet'], { cwd: root, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const banner = await new Promise<string>((resolve, reject) => {
        let out = '';
        const timer = setTimeout(() => reject(new Error(`no banner in 30 s: ${out}`)), 30_000);
        child.stdout!.on('data', (chunk) => {
          out += chunk;
          if (out.includes('empty account')) (clearTimeout(timer), resolve(out));
        });
        child.stderr!.on('data', (chunk) => (out += chunk));
        child.on('exit', (code) => (clearTimeout(timer), reject(new Error(`npm start exited ${code}: ${out}`))));
      });
      for (const key of listed) expect(banner).toContain(key);
      const base = /listening on\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(banner)![1]!;
      const health = await fetch(`${base}/healthz`);
      const body = await health.text();
      assertContract({ method: 'GET', url: '/healthz', status: health.status, headers: Object.fromEntries(health.headers), body });
      expect(health.status).toBe(200);
    } finally {
      process.kill(-child.pid!, 'SIGTERM');
    }
  }, 60_000);
});
