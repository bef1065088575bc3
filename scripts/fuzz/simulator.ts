import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** A CLI simulator on a free loopback port, and the seeded keys its banner prints. */
export interface FuzzedSimulator {
  baseUrl: string;
  keys: { readWrite: string; revoked: string };
  /** Lines the simulator wrote to stderr (its logged errors), for the report. */
  stderr(): string;
  /** Whether the process is still running. */
  alive(): boolean;
  stop(): Promise<void>;
}

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Starts `content-sim serve` from the sources, as `npm run dev` does. The spec's rate limits
 * are lifted unless asked for, so that thousands of requests reach the handlers, not a 429.
 */
export async function startSimulator(options: { rateLimits?: boolean } = {}): Promise<FuzzedSimulator> {
  const args = ['--import', 'tsx', 'src/cli/main.ts', 'serve', '--port', '0', '--host', '127.0.0.1', '--quiet', ...(options.rateLimits ? [] : ['--no-rate-limits'])];
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    // The simulator's own settings only: none of the SIM_* variables of the caller's shell.
    env: Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('SIM_'))),
  });
  let errors = '';
  child.stderr!.on('data', (chunk) => {
    if (errors.length < 1 << 20) errors += chunk;
  });
  let exited = false;
  child.on('exit', () => (exited = true));
  const banner = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`the simulator printed no banner in 60 s: ${out}${errors}`)), 60_000);
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      if (out.includes('empty account')) (clearTimeout(timer), resolve(out));
    });
    child.on('exit', (code) => (clearTimeout(timer), reject(new Error(`the simulator exited ${code}: ${out}${errors}`))));
  });
  const key = (label: string) => new RegExp(`${label}\\s+(svc_live_[0-9a-f]{40})`).exec(banner)?.[1] ?? '';
  return {
    baseUrl: /listening on\s+(http:\/\/\S+)/.exec(banner)![1]!,
    keys: { readWrite: key('read\\+write'), revoked: key('revoked') },
    stderr: () => errors,
    alive: () => !exited,
    stop: () =>
      new Promise<void>((resolve) => {
        if (exited) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => (exited ? undefined : child.kill('SIGKILL')), 10_000).unref();
      }),
  };
}
