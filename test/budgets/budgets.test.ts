import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Budgets that hold the speed won: what a plain `content-sim serve` loads and compiles at start,
 * what a GET and the journal allocate, the heap a build keeps. Each is a count (modules, bytes of
 * source, bytes of heap) measured in a fresh process, so it does not depend on the machine's
 * load; each budget sits a little above today's figure and fails on a regression (the timed
 * comparisons are in bench/). Today's figures, and those before the budgets: bench/README.md.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * A plain start: 11 files of ours today (16 with ajv's runtime helpers loaded from node_modules,
 * 79 when YAML was loaded), 1.37 MB of JavaScript (1.76 MB with all of zod bundled, 2.08 MB
 * with YAML).
 */
const START_FILES = 13;
const START_BYTES = 1_450_000;
/**
 * A GET through the node:http listener: 1.7 to 2.1 KB today on Node 20 and 22, 2.5 KB on 24 and
 * 26; 5.2 to 5.3 KB when the journal copied each request's headers and redacted its bodies.
 */
const GET_BYTES = 3_000;
/** Keeping one exchange in the journal, nobody reading: nothing (a slot of references, reused). */
const RECORD_BYTES = 16;
/**
 * Heap kept per build at 2×10^4 builds (charged, half read once, completed): 797 to 840 B today,
 * by Node; 859 to 897 B when a build's charge kept its own copy of the build's fields and
 * correlation ids of 24 hex digits were kept as text.
 */
const BUILD_BYTES = 850;
/** Heap of an account nobody has used yet: 2.3 KB today; 9.9 KB when every collection and index made its maps up front. */
const ACCOUNT_BYTES = 2_600;

interface Start {
  files: string[];
  builtins: string[];
}

/** The module files (and built-in modules) a plain `serve` has loaded once it answered its first request. */
async function plainStart(): Promise<Start> {
  const out = join(mkdtempSync(join(tmpdir(), 'start-modules-')), 'loaded.json');
  const child = spawn(process.execPath, ['--import', `${root}test/budgets/start-modules.mjs`, `${root}dist/cli/main.js`, 'serve', '--port', '0', '--quiet'], {
    env: { ...process.env, START_MODULES_OUT: out },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let text = '';
      child.stdout.on('data', (chunk) => {
        text += chunk;
        const match = /listening on\s+(http:\/\/\S+)/.exec(text);
        if (match) resolve(match[1] as string);
      });
      child.once('exit', (code) => reject(new Error(`serve exited ${code}`)));
    });
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    child.kill('SIGUSR2');
    for (let i = 0; i < 100; i++) {
      try {
        return JSON.parse(readFileSync(out, 'utf8')) as Start;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    throw new Error('the started process wrote no module list');
  } finally {
    child.kill('SIGKILL');
  }
}

function probe(what: 'get' | 'build'): Record<string, number> {
  const text = execFileSync(process.execPath, ['--expose-gc', '--max-semi-space-size=64', '--import', 'tsx', `${root}test/budgets/budget-probe.ts`, what], { cwd: root, encoding: 'utf8' });
  return JSON.parse(text.trim().split('\n').at(-1)!) as Record<string, number>;
}

describe('start-up budget', () => {
  it('a plain serve loads no YAML, no state-file log, no HTTPS client, and compiles at most its budget of JavaScript', async () => {
    const { files, builtins } = await plainStart();
    const ours = files.filter((file) => !file.includes('/test/budgets/'));
    expect(ours.filter((file) => file.includes('/node_modules/yaml/'))).toEqual([]);
    // The client-metadata fetcher's modules (Node 22 and later load `tls` at start for their own reasons).
    expect(builtins.filter((name) => ['https', 'dns/promises'].includes(name))).toEqual([]);
    expect(ours.length, ours.join('\n')).toBeLessThanOrEqual(START_FILES);
    const bytes = ours.reduce((sum, file) => sum + statSync(file).size, 0);
    expect(bytes).toBeLessThanOrEqual(START_BYTES);
    // The write-ahead log and the state file's recovery are bundled in chunks of their own, loaded with --state-file only.
    const loadedText = ours.filter((file) => file.startsWith(`${root}dist/`)).map((file) => readFileSync(file, 'utf8'));
    expect(loadedText.filter((text) => /(?:class DurableState\b|DurableState=class\b|function recoverState\b)/.test(text))).toHaveLength(0);
  }, 30_000);
});

describe('request budgets (heap counts in a fresh process)', () => {
  it('a GET allocates at most its budget, and keeping it in the journal allocates nothing', () => {
    const { getBytes, recordBytes } = probe('get');
    expect(getBytes).toBeGreaterThan(0);
    expect(getBytes).toBeLessThanOrEqual(GET_BYTES);
    expect(recordBytes).toBeLessThanOrEqual(RECORD_BYTES);
  }, 60_000);

  it('a build keeps at most its budget of heap, and an account nobody has used holds little', () => {
    const { buildBytes, accountBytes } = probe('build');
    expect(buildBytes).toBeGreaterThan(0);
    expect(buildBytes).toBeLessThanOrEqual(BUILD_BYTES);
    expect(accountBytes).toBeGreaterThan(0);
    expect(accountBytes).toBeLessThanOrEqual(ACCOUNT_BYTES);
  }, 120_000);
});
