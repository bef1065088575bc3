import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The CLI server as `npm start` runs it, on a free port; resolved once its banner is out. */
export interface CliServer {
  baseUrl: string;
  /** The seeded read+write key the banner prints. */
  key: string;
  /** The process that serves (tsx runs the CLI in a child of its own), for reading its memory. */
  serverPid(): number;
  stop(): void;
}

const root = fileURLToPath(new URL('../..', import.meta.url));

export async function startCli(args: string[] = []): Promise<CliServer> {
  const child: ChildProcess = spawn(`${root}node_modules/.bin/tsx`, ['src/cli/main.ts', 'serve', '--port', '0', '--quiet', ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  const banner = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no banner: ${out}`)), 30_000);
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      if (out.includes('empty account')) (clearTimeout(timer), resolve(out));
    });
    child.on('exit', (code) => (clearTimeout(timer), reject(new Error(`exited ${code}: ${out}`))));
  });
  return {
    baseUrl: /listening on\s+(http:\/\/\S+)/.exec(banner)![1]!,
    key: /read\+write\s+(svc_live_[0-9a-f]{40})/.exec(banner)![1]!,
    serverPid: () => Number(readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(/\s+/)[0] || child.pid),
    stop: () => void child.kill('SIGTERM'),
  };
}
