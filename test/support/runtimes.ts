/**
 * The other Node majors, Bun, Deno and the pinned third-party tools that some tests drive live in
 * test/runtimes (about 1.2 GB, Linux x64 only). They are installed the first time a test needs
 * them, not before every run: a quick or targeted run never downloads them. Several test workers
 * may ask at once, so one installs under a lock and the others wait for its stamp.
 *
 * `npm run test:runtimes` installs them up front (CI does, for its repeat passes on other Nodes).
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const folder = join(root, 'test/runtimes');
/** Where the installed tools are. */
export const runtimes = join(folder, 'node_modules');
const stamp = join(runtimes, '.installed-lock-digest');
const lock = join(folder, '.install-lock');
const WAIT_MS = 15 * 60_000;

/** Only Linux x64 has the platform packages; elsewhere the tests that need them skip. */
export const runtimesSupported = process.platform === 'linux' && process.arch === 'x64';

function wanted(): string {
  return createHash('sha256').update(readFileSync(join(folder, 'package-lock.json'))).digest('hex');
}

function installed(): boolean {
  return existsSync(stamp) && readFileSync(stamp, 'utf8') === wanted();
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function holderAlive(): boolean {
  try {
    process.kill(Number(readFileSync(join(lock, 'pid'), 'utf8')), 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Installs test/runtimes unless the installed set matches its lock file; returns its
 * node_modules folder. Synchronous, so a test file can call it while it is being collected.
 */
export function ensureRuntimes(): string {
  if (!runtimesSupported || installed()) return runtimes;
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (installed()) return runtimes;
      if (!holderAlive() && existsSync(join(lock, 'pid'))) rmSync(lock, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`test/runtimes: gave up waiting for the install holding ${lock}`);
      sleep(500);
    }
  }
  try {
    writeFileSync(join(lock, 'pid'), String(process.pid));
    if (installed()) return runtimes;
    process.stderr.write('installing the test runtimes into test/runtimes (once; about 1.2 GB)…\n');
    execFileSync('npm', ['install', '--prefix', folder, '--no-audit', '--no-fund', '--silent'], { stdio: ['ignore', 'ignore', 'inherit'] });
    writeFileSync(stamp, wanted());
    return runtimes;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  ensureRuntimes();
  console.log(runtimesSupported ? `test runtimes ready in ${runtimes}` : 'test runtimes: Linux x64 only; their tests skip here');
}
