import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
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
 * `npm pack` runs the build (`prepare`) and takes a minute or two: the test files of one run
 * share one tarball. The first to get the directory packs, the others wait for its file.
 */
export async function packedTarball(): Promise<string> {
  const shared = join(tmpdir(), `sim-pack-${runId()}`);
  const done = join(shared, 'content-service-simulator.tgz');
  let mine = false;
  try {
    mkdirSync(shared);
    mine = true;
  } catch {
    // another test file of this run packs
  }
  if (mine) {
    const packDir = mkdtempSync(join(tmpdir(), 'sim-pack-'));
    const source = await workTreeCopy();
    try {
      await run('npm', ['pack', '--pack-destination', packDir, '--silent'], { cwd: source, env: npmEnv, maxBuffer: 1 << 24 });
      renameSync(join(packDir, readdirSync(packDir).find((f) => f.endsWith('.tgz'))!), done);
    } finally {
      rmSync(packDir, { recursive: true, force: true });
      rmSync(source, { recursive: true, force: true });
    }
    return done;
  }
  for (let waited = 0; waited < 240_000 && !existsSync(done); waited += 500) await new Promise((r) => setTimeout(r, 500));
  if (!existsSync(done)) throw new Error(`no tarball at ${done} after 240 s`);
  return done;
}

/**
 * The work tree's files (tracked and new, edits included) copied beside the install: `npm pack`
 * builds (prepack) and rewrites package.json for a moment, which must not happen under the
 * feet of tests running in parallel with this one against the checkout's own dist/.
 */
async function workTreeCopy(): Promise<string> {
  const copy = mkdtempSync(join(tmpdir(), 'sim-pack-source-'));
  const { stdout } = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, maxBuffer: 1 << 26 });
  for (const file of stdout.split('\0')) {
    if (!file || !existsSync(join(root, file)) || file.startsWith('test/runtimes/')) continue;
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    copyFileSync(join(root, file), join(copy, file));
  }
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'), 'dir');
  return copy;
}

/** The test run: vitest's process (the workers' parent) and its start time, so a reused pid never finds an old tarball. */
function runId(): string {
  const stat = existsSync(`/proc/${process.ppid}/stat`) ? readFileSync(`/proc/${process.ppid}/stat`, 'utf8') : '';
  const started = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  return started ? `${process.ppid}-${started}` : `${process.pid}`;
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
