import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli, type CliServer } from '../support/cli-server.js';
import { missing } from '../support/requirements.js';
import { ensureRuntimes } from '../support/runtimes.js';
import { signIn } from './support.js';

/**
 * The official MCP conformance tool's authorization-server scenarios (Node 22) against the
 * CLI server. For the code grant the tool prints a sign-in link and waits on its own
 * callback port; this test plays the user: it opens the link, types the API key, approves,
 * and follows the redirect to the tool.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const RUNTIMES = ensureRuntimes();
const NODE22 = `${RUNTIMES}/node22/bin/node`;
const CONFORMANCE = `${RUNTIMES}/@modelcontextprotocol/conformance/dist/index.js`;

let server: CliServer;
let base: string;
let key: string;

beforeAll(async () => {
  server = await startCli();
  ({ baseUrl: base, key } = server);
});
afterAll(() => server?.stop());

function conformance(args: string[], onLine: (line: string) => void = () => {}): Promise<{ code: number; output: string }> {
  const child = spawn(NODE22, [CONFORMANCE, 'authorization', '--url', base, ...args], { cwd: root, env: { ...process.env, NO_COLOR: '1' } });
  let output = '';
  let pending = '';
  const read = (chunk: Buffer) => {
    const text = String(chunk).replace(/\x1b\[[0-9;]*m/g, '');
    output += text;
    pending += text;
    const lines = pending.split('\n');
    pending = lines.pop()!;
    lines.forEach(onLine);
  };
  child.stdout.on('data', read);
  child.stderr.on('data', read);
  const timer = setTimeout(() => child.kill(), 60_000);
  return new Promise((resolve) => child.on('exit', (code) => (clearTimeout(timer), resolve({ code: code ?? 1, output }))));
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/**
 * The browser following the redirect to the tool's callback. The tool prints the sign-in URL
 * as it starts its callback listener, which on a busy machine may not be up yet: a refused
 * connection is tried again, a bounded number of times.
 */
async function followToCallback(location: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await (await fetch(location)).arrayBuffer();
      return;
    } catch (error) {
      if (attempt >= 50 || (error as { cause?: { code?: string } }).cause?.code !== 'ECONNREFUSED') throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

describe.skipIf(missing('node22'))('the MCP conformance tool, authorization server scenarios', () => {
  it('passes authorization-server-metadata-endpoint', async () => {
    const run = await conformance(['--scenario', 'authorization-server-metadata-endpoint']);
    expect(run.code, run.output).toBe(0);
    expect(run.output).toMatch(/authorization-server-metadata\s*\]\s*SUCCESS/);
  });

  it('passes authorization-code-grant (with the metadata scenario it builds on), signing in on the page', async () => {
    const port = await freePort();
    const registered = await (
      await fetch(`${base}/oauth/register`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ redirect_uris: [`http://127.0.0.1:${port}/callback`], client_name: 'conformance' }) })
    ).json();
    const signedIn: Promise<void>[] = [];
    // The code-grant scenario reads the metadata scenario's result: run the suite, which holds both.
    const run = await conformance(['--client-id', registered.client_id, '--port', String(port), '--resource', `${base}/mcp`], (line) => {
      if (!line.startsWith(`${base}/oauth/authorize?`)) return;
      signedIn.push(
        (async () => {
          const answer = await signIn(line.trim(), key);
          expect(answer.status, answer.html).toBe(302);
          await followToCallback(answer.location!);
        })(),
      );
    });
    await Promise.all(signedIn);
    expect(run.code, run.output).toBe(0);
    expect(signedIn).toHaveLength(1);
    // Two checks since the server supports client ID metadata documents (the tool checks that advertisement too).
    expect(run.output).toMatch(/authorization-server-metadata-endpoint: 2 passed, 0 failed/);
    expect(run.output).toMatch(/authorization-code-grant: 1 passed, 0 failed/);
  });
});
