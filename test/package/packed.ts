import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/** The packed package as a user installs it, shared by the package tests. */
export const root = fileURLToPath(new URL('../..', import.meta.url));
export const run = promisify(execFile);
export const npmEnv = { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };

/** The version this repository uses, so an install finds it in the npm cache. */
export function versionOf(name: string): string {
  return (JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
}

/**
 * `npm pack` runs the build (`prepare`) and takes a minute or two: one tarball serves every run
 * of the same sources (the test files of one run, CI's pass on each Node, a second `npm test`).
 * It is kept in the temporary folder under the SHA-256 of the work tree's files, so an edit
 * packs again. The first to take the lock packs; the others wait for its file, or take the
 * lock over when the process that held it is gone.
 */
export async function packedTarball(): Promise<string> {
  const files = await workTreeFiles();
  const done = join(tmpdir(), `sim-pack-${contentKey(files)}.tgz`);
  const lock = `${done}.lock`;
  for (let waited = 0; !existsSync(done); waited += 500) {
    if (takeLock(lock)) {
      try {
        if (!existsSync(done)) await pack(files, done);
      } finally {
        rmSync(lock, { recursive: true, force: true });
      }
      break;
    }
    if (waited > 240_000) throw new Error(`no tarball at ${done} after 240 s`);
    await new Promise((r) => setTimeout(r, 500));
  }
  return done;
}

async function pack(files: string[], done: string): Promise<void> {
  const packDir = mkdtempSync(join(tmpdir(), 'sim-pack-'));
  const source = workTreeCopy(files);
  try {
    await run('npm', ['pack', '--pack-destination', packDir, '--silent'], { cwd: source, env: npmEnv, maxBuffer: 1 << 24 });
    renameSync(join(packDir, readdirSync(packDir).find((f) => f.endsWith('.tgz'))!), done);
  } finally {
    rmSync(packDir, { recursive: true, force: true });
    rmSync(source, { recursive: true, force: true });
  }
}

/** A lock folder holding its owner's pid; one whose owner is no longer running is taken over. */
function takeLock(lock: string): boolean {
  try {
    mkdirSync(lock);
    writeFileSync(join(lock, 'pid'), String(process.pid));
    return true;
  } catch {
    const owner = Number(existsSync(join(lock, 'pid')) ? readFileSync(join(lock, 'pid'), 'utf8') : NaN);
    if (owner && !running(owner)) rmSync(lock, { recursive: true, force: true });
    return false;
  }
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The files `npm pack` builds from: tracked and new (edits included), not ignored, not the test
 * runtimes; files only (a node_modules that is a symlink is not matched by `node_modules/`).
 */
async function workTreeFiles(): Promise<string[]> {
  const { stdout } = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, maxBuffer: 1 << 26 });
  const isFile = (file: string) => existsSync(join(root, file)) && statSync(join(root, file)).isFile();
  return stdout.split('\0').filter((file) => file && file !== 'node_modules' && !file.startsWith('test/runtimes/') && isFile(file)).sort();
}

function contentKey(files: string[]): string {
  const hash = createHash('sha256');
  for (const file of files) hash.update(`${file}\0`).update(readFileSync(join(root, file))).update('\0');
  return hash.digest('hex').slice(0, 32);
}

/**
 * The work tree's files copied beside the install: `npm pack` builds (prepack) and rewrites
 * package.json for a moment, which must not happen under the feet of tests running in parallel
 * with this one against the checkout's own dist/.
 */
function workTreeCopy(files: string[]): string {
  const copy = mkdtempSync(join(tmpdir(), 'sim-pack-source-'));
  for (const file of files) {
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    copyFileSync(join(root, file), join(copy, file));
  }
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'), 'dir');
  return copy;
}

/** An empty project of that module type with the tarball installed, and msw, typescript and Node's types beside it. */
export async function userProject(type: 'module' | 'commonjs'): Promise<string> {
  const tarball = await packedTarball();
  const project = mkdtempSync(join(tmpdir(), `sim-user-${type}-`));
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: `user-${type}`, private: true, type }));
  const tools = ['msw', 'typescript', '@types/node'].map((name) => `${name}@${versionOf(name)}`);
  await run('npm', ['install', '--prefer-offline', '--no-save', tarball, ...tools], { cwd: project, env: npmEnv, maxBuffer: 1 << 24 });
  return project;
}

/** `npx content-sim serve` in the project, in its own process group; resolves with its address once its banner is out. */
export async function npxServe(project: string, children: ChildProcess[], args: string[] = []): Promise<{ child: ChildProcess; baseUrl: string; stderr: () => string }> {
  const child = spawn('npx', ['content-sim', 'serve', '--port', '0', '--quiet', ...args], { cwd: project, env: npmEnv, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  children.push(child);
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no banner: ${out}`)), 30_000);
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      const url = /listening on\s+(http:\/\/\S+)/.exec(out)?.[1];
      if (url && out.includes('empty account')) (clearTimeout(timer), resolve(url));
    });
    child.once('exit', (code) => reject(new Error(`npx content-sim exited ${code}: ${out}`)));
  });
  return { child, baseUrl, stderr: () => stderr };
}

/** npx runs the server as its grandchild: kill each whole group, whatever the test ended with. */
export function killGroups(children: ChildProcess[]): void {
  for (const child of children.splice(0)) {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}
