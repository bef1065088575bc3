import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer, type AddressInfo } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Real nginx (Debian's package) and real `content-sim serve` processes, started exactly as
 * docs/operations/scaling.md says, on free loopback ports. nginx runs as the
 * current user with every path it writes (pid, logs, temporary bodies) in a temp directory.
 */
const root = fileURLToPath(new URL('../../..', import.meta.url));

/** The scale-out guide, whose demo-key table the test also reads. */
export const SCALING_DOC = join(root, 'docs/operations/scaling.md');

/** The guide's two code blocks: the commands that start the instances (marked illustrative: this test runs them), and nginx's configuration. */
export function readmeRecipe(): { commands: string[][]; nginx: string } {
  const section = readFileSync(SCALING_DOC, 'utf8');
  const block = (lang: string) => {
    const match = new RegExp('```' + lang + '(?: [^\\n]*)?\\n([\\s\\S]*?)```').exec(section);
    if (!match) throw new Error(`no ${lang} block in docs/operations/scaling.md`);
    return match[1] as string;
  };
  const commands = block('sh').trim().split('\n').map((line) => line.trim().split(/\s+/));
  return { commands, nginx: block('nginx') };
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface Instance {
  port: number;
  banner: string;
  /** The keys the banner prints, by role. */
  keys: { readWrite: string; readOnly: string };
  stop(): void;
}

/** `content-sim serve …` from the guide, on a free port (`--port 0`), plus extra options. */
export async function startInstance(readmeArgs: string[], extra: string[]): Promise<Instance> {
  const args = readmeArgs.slice(2).map((arg, i, all) => (all[i - 1] === '--port' ? '0' : arg));
  const child: ChildProcess = spawn(`${root}node_modules/.bin/tsx`, ['src/cli/main.ts', 'serve', ...args, '--quiet', ...extra], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  const banner = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no banner: ${out}`)), 30_000);
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      if (out.includes('empty account')) (clearTimeout(timer), resolve(out));
    });
    child.stderr!.on('data', (chunk) => (out += chunk));
    child.on('exit', (code) => (clearTimeout(timer), reject(new Error(`exited ${code}: ${out}`))));
  });
  const key = (role: string) => new RegExp(`${role}\\s+(svc_live_[0-9a-f]{40})`).exec(banner)![1]!;
  return {
    port: Number(/listening on\s+http:\/\/127\.0\.0\.1:(\d+)/.exec(banner)![1]),
    banner,
    keys: { readWrite: key('read\\+write'), readOnly: key('read-only') },
    stop: () => void child.kill('SIGTERM'),
  };
}

export interface Nginx {
  stop(): Promise<void>;
}

/**
 * nginx with `http { <recipe> }`, in the foreground as our child, its prefix a temp directory.
 * As root it would hand its workers to `nobody`: the `user` line keeps them the current user.
 */
export async function startNginx(binary: string, recipe: string, port: number): Promise<Nginx> {
  const prefix = mkdtempSync(join(tmpdir(), 'sim-nginx-'));
  for (const dir of ['logs', 'body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(prefix, dir));
  const user = process.getuid?.() === 0 ? `user ${userInfo().username};\n` : '';
  writeFileSync(join(prefix, 'recipe.conf'), recipe);
  writeFileSync(join(prefix, 'nginx.conf'), `${user}daemon off;
worker_processes 1;
pid ${prefix}/nginx.pid;
error_log ${prefix}/logs/error.log warn;
events { worker_connections 256; }
http {
    access_log off;
    client_body_temp_path ${prefix}/body;
    proxy_temp_path ${prefix}/proxy;
    fastcgi_temp_path ${prefix}/fastcgi;
    uwsgi_temp_path ${prefix}/uwsgi;
    scgi_temp_path ${prefix}/scgi;
    include ${prefix}/recipe.conf;
}
`);
  const child = spawn(binary, ['-p', prefix, '-c', join(prefix, 'nginx.conf'), '-e', join(prefix, 'logs', 'error.log')], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // Listening once a connection is accepted: at most 10 s, in 50 ms steps.
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null) throw new Error(`nginx exited ${child.exitCode}: ${output}${readLog(prefix)}`);
    if (await accepts(port)) break;
    if (attempt >= 200) throw new Error(`nginx does not listen on ${port}: ${output}${readLog(prefix)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
      rmSync(prefix, { recursive: true, force: true });
    },
  };
}

function readLog(prefix: string): string {
  const path = join(prefix, 'logs', 'error.log');
  return existsSync(path) ? readFileSync(path, 'utf8') : '';
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}
