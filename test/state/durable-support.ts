import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { assertContract } from '../support/contract.js';

/** The CLI with a state file, killed and started again on the same file; every answer checked against the contracts. */
const root = fileURLToPath(new URL('../..', import.meta.url));
const children = new Set<ChildProcess>();

export interface Running {
  child: ChildProcess;
  base: string;
  key: string;
}

export function serveWithState(stateFile: string, extra: string[] = [], nodeArgs: string[] = [], env: Record<string, string> = {}): Promise<Running> {
  const args = ['--import', 'tsx', ...nodeArgs, 'src/cli/main.ts', 'serve', '--port', '0', '--quiet', '--no-rate-limits', '--state-file', stateFile, ...extra];
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  children.add(child);
  child.once('exit', () => children.delete(child));
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`no banner: ${out}${err}`)), 120_000);
    child.stderr!.on('data', (chunk) => (err += chunk));
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      const port = /listening on\s+http:\/\/127\.0\.0\.1:(\d+)/.exec(out)?.[1];
      const key = /read\+write\s+(svc_live_[0-9a-f]{40})/.exec(out)?.[1];
      if (port && key && out.includes('empty account')) (clearTimeout(timer), resolve({ child, base: `http://127.0.0.1:${port}`, key }));
    });
    child.once('exit', (code) => (clearTimeout(timer), reject(new Error(`exited ${code}: ${out}${err}`))));
  });
}

export function killAll(): void {
  for (const child of children) child.kill('SIGKILL');
}

export const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', (code) => resolve(code))));

export async function sigkill(run: Running): Promise<void> {
  run.child.kill('SIGKILL');
  await exited(run.child);
}

export interface Answer {
  status: number;
  body: any;
}

/** One call, its answer validated against openapi.yaml or simulator-control.yaml. */
export async function call(run: Running, method: string, path: string, body?: unknown, headers: Record<string, string> = {}, key = run.key): Promise<Answer> {
  const res = await fetch(`${run.base}${path}`, {
    method,
    headers: { Authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  assertContract({ method, url: path, status: res.status, headers: Object.fromEntries(res.headers), body: text });
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** Every record of a list, page after page. */
export async function listAll(run: Running, path: string, key = run.key): Promise<any[]> {
  const all: any[] = [];
  let cursor: string | null = null;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const page: Answer = await call(run, 'GET', `${path}${sep}limit=100${cursor ? `&cursor=${cursor}` : ''}`, undefined, {}, key);
    if (page.status !== 200) throw new Error(`${path}: ${page.status} ${JSON.stringify(page.body)}`);
    all.push(...page.body.data);
    cursor = page.body.nextCursor;
  } while (cursor);
  return all;
}

/** A large body on a connection of its own (a kept-alive one may have been closed while the body was made). */
export async function postLarge(run: Running, path: string, body: string): Promise<Answer> {
  const { request } = await import('node:http');
  const url = new URL(path, run.base);
  const answer = await new Promise<{ status: number; headers: Record<string, string>; text: string }>((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers as Record<string, string>, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
  assertContract({ method: 'POST', url: path, status: answer.status, headers: answer.headers, body: answer.text });
  return { status: answer.status, body: answer.text ? JSON.parse(answer.text) : undefined };
}

/** The demo account grown with targets of full-length descriptions until the snapshot passes `bytes`. */
export function bigSnapshot(base: any, bytes: number): string {
  const account = base.accounts.find((a: any) => a.targets.entries.length > 0);
  const [, model] = account.targets.entries[0];
  const description = 'Coffee gear for home baristas, roasted in small batches. '.repeat(40).slice(0, 2000);
  let size = JSON.stringify(base).length;
  let seq = account.targets.nextSeq;
  while (size < bytes) {
    const id = randomUUID();
    const slug = `brand-${seq}`;
    const target = { ...model, id, slug, name: `Brand ${seq}`, description };
    account.targets.entries.push([seq, target]);
    account.slugs.push([slug, id]);
    size += JSON.stringify(target).length + slug.length + 60;
    seq++;
  }
  account.targets.nextSeq = seq;
  return JSON.stringify(base);
}
