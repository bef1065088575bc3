/**
 * What the full suite needs beyond `npm install`, found once: a test that needs something
 * missing here skips, and says in one line what to install.
 *
 * - Java 17 or newer on PATH (Specmatic's jar),
 * - Chromium at /usr/bin/chromium (Debian's `chromium` package; the browser tests),
 * - nginx (Debian's `nginx` package; the scale-out recipe),
 * - the official MCP Python SDK in test/runtimes/.venv (pinned; .ci/run installs it),
 * - on Linux x64 only: the Node 22, 24 and 26 binaries, Bun and Deno in test/runtimes, installed
 *   the first time a test asks for one (their packages are for that platform).
 *
 * On CI (CI set) nothing is reported missing: there a missing tool is a broken install step,
 * so its tests run and fail rather than skip.
 */
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureRuntimes, runtimes } from './runtimes.js';

export type Tool = 'java' | 'chromium' | 'nginx' | 'node22' | 'node24' | 'node26' | 'bun' | 'deno' | 'python-mcp';

const root = fileURLToPath(new URL('../..', import.meta.url));
export { runtimes };

/** A tool of test/runtimes: asking for it installs them the first time (see runtimes.ts). */
function runtime(...paths: string[]): () => string | undefined {
  return () => {
    ensureRuntimes();
    return found(...paths.map((path) => join(runtimes, path)));
  };
}

const where: Record<Tool, () => string | undefined> = {
  java: () => onPath('java'),
  chromium: () => found('/usr/bin/chromium'),
  nginx: () => onPath('nginx') ?? found('/usr/sbin/nginx', '/usr/local/sbin/nginx'),
  node22: runtime('node22/bin/node'),
  node24: runtime('node24/bin/node'),
  node26: runtime('node26/bin/node'),
  // The platform package's binary, which the bun package's install script moves into bun/bin.
  bun: runtime('@oven/bun-linux-x64/bin/bun', 'bun/bin/bun.exe'),
  deno: runtime('@deno/linux-x64-glibc/deno'),
  'python-mcp': () => found(join(root, 'test/runtimes/.venv/bin/python')),
};

/** Where each tool is, when it is there; looked up (and test/runtimes installed) when first read. */
export const tools = {} as Record<Tool, string | undefined>;
for (const tool of Object.keys(where) as Tool[]) {
  let known: { path: string | undefined } | undefined;
  Object.defineProperty(tools, tool, { enumerable: true, get: () => (known ??= { path: where[tool]() }).path });
}

const RUNTIME_HINT = 'Linux x64 only, installed into test/runtimes when a test first needs it (`npm run test:runtimes`)';
const HOW_TO_GET: Record<Tool, string> = {
  java: 'Java 17 or newer on PATH (Debian: apt-get install default-jre-headless)',
  chromium: 'Chromium at /usr/bin/chromium (Debian: apt-get install chromium)',
  nginx: 'nginx (Debian: apt-get install nginx)',
  node22: `Node 22 in test/runtimes (${RUNTIME_HINT})`,
  node24: `Node 24 in test/runtimes (${RUNTIME_HINT})`,
  node26: `Node 26 in test/runtimes (${RUNTIME_HINT})`,
  bun: `Bun in test/runtimes (${RUNTIME_HINT})`,
  deno: `Deno in test/runtimes (${RUNTIME_HINT})`,
  'python-mcp': 'the MCP Python SDK in test/runtimes/.venv (python3 -m venv test/runtimes/.venv && test/runtimes/.venv/bin/pip install -r test/runtimes/python-requirements.txt)',
};

const told = new Set<string>();

/**
 * Why a test that needs these tools cannot run here, or undefined when it can: use it as
 * `describe.skipIf(missing(...))`. The reason is printed once per test file.
 */
export function missing(...needed: Tool[]): string | undefined {
  if (process.env.CI) return undefined;
  const absent = needed.filter((tool) => tools[tool] === undefined);
  if (absent.length === 0) return undefined;
  const reason = `skipped: needs ${absent.map((tool) => HOW_TO_GET[tool]).join('; ')}`;
  if (!told.has(reason)) {
    told.add(reason);
    console.warn(reason);
  }
  return reason;
}

function found(...paths: string[]): string | undefined {
  return paths.find((path) => existsSync(path));
}

function onPath(command: string): string | undefined {
  const extensions = process.platform === 'win32' ? (process.env.PATHEXT ?? '.EXE').split(';') : [''];
  const dirs = (process.env.PATH ?? '').split(delimiter).filter(Boolean);
  return found(...dirs.flatMap((dir) => extensions.map((extension) => join(dir, command + extension))));
}
