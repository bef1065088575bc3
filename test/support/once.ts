import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * CI runs the whole suite on the machine's Node and again on every newer major (`.ci/run` sets
 * REPEAT_RUN=1 for the later passes). What a repeat pass runs is what can differ by runtime:
 * what goes through Node's own APIs (sockets, processes, the file system, streams, timers),
 * the adapters, the CLI, the MCP SDK's transports, a browser. Two rules decide it:
 *
 * - A test file that drives none of them itself (`drivesTheRuntime`) runs on the first pass
 *   only: it asks the engine, the contract suite or a pure module a question, in-process or
 *   through the test harness, and that JavaScript answers the same on every Node. The
 *   harness's one node:http path is covered on every pass by the adapter and CLI tests.
 * - Within a file that does, a test whose outcome cannot depend on the Node that runs it (it
 *   drives external tools, long floods against a spawned server, or catalogues of planted
 *   faults through logic every pass already runs) is marked with `repeatRun`.
 */
export const repeatRun = process.env.REPEAT_RUN === '1';

/**
 * What in a test file's own source means it drives the runtime: a process, a socket or server
 * of its own, a browser, a file written, or a helper that does one of these.
 */
const RUNTIME = [
  /from 'node:(child_process|net|http|https|http2|dgram|worker_threads|stream|stream\/promises|readline|v8|vm)'/,
  /\b(spawn|spawnSync|execFile|execFileSync|fork)\(/,
  /\b(writeFileSync|appendFileSync|mkdtempSync|mkdirSync|rmSync|renameSync|createWriteStream|truncateSync)\b/,
  /\.listen\(|\bfetch\(['`]http/,
  // The test helpers that start servers, processes, a browser or npm, or write state files.
  /\b(startCli|serveOnLoopback|serveForThisFile|serveWithState|mcpRig|oauthRig|runContractsCommand|runBlocks|startCheckingProxy|packedTarball|npxServe|userProject|ensureRuntimes|startInfrastructureProxy|startLatencyProxy|startRewritingProxy|listenOnLoopback|budget-probe|chromium|playwright)\b/i,
  /\bserve\(|from '(\.\.\/)*(\.\/)?(support\/)?(cli-server|browser|runtimes|packed)\.js'/,
];

/** Where every file runs on every Node, whatever it calls: the adapters (the Fetch adapter's Request and Response are the runtime's), the MCP SDK's interplay, the package, the browser bundles. */
const EVERY_NODE_DIRS = ['test/adapters/', 'test/mcp/', 'test/package/', 'test/browser/'];

export function drivesTheRuntime(source: string): boolean {
  return RUNTIME.some((pattern) => pattern.test(source));
}

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) return [];
    const path = join(dir, entry.name);
    return entry.isDirectory() ? testFiles(path) : entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The test files under src/ and test/ that drive no runtime API themselves: the first pass runs them, the repeat passes do not. */
export function sameOnEveryNode(root: string): string[] {
  return ['src', 'test']
    .flatMap((dir) => testFiles(join(root, dir)))
    .map((file) => relative(root, file))
    .filter((file) => !EVERY_NODE_DIRS.some((dir) => file.startsWith(dir)) && !drivesTheRuntime(readFileSync(join(root, file), 'utf8')))
    .sort();
}

/**
 * What in a test file's source reaches the next file that its worker runs when workers share
 * their modules (vitest's isolate: false): a mocked module, a stubbed global or variable of the
 * environment, or fake timers or spies it never restores.
 */
const LEAKS = [/\bvi\.(mock|doMock|stubGlobal|stubEnv)\(/, /\bprocess\.env(\.\w+|\[[^\]]+\])\s*=[^=]|\bdelete process\.env\b/, /\bglobalThis\.\w+\s*=[^=]/];
const RESTORED: Array<[RegExp, RegExp]> = [
  [/\bvi\.useFakeTimers\(/, /\bvi\.useRealTimers\(/],
  [/\bvi\.spyOn\(/, /\bvi\.restoreAllMocks\(|\.mockRestore\(/],
];

export function leavesNothingBehind(source: string): boolean {
  return !LEAKS.some((pattern) => pattern.test(source)) && RESTORED.every(([use, restore]) => !use.test(source) || restore.test(source));
}

/** The first-pass-only files whose workers share their modules: each imports the engine and the contract suite once per worker, not once per file. */
export function sharingModules(root: string): string[] {
  return sameOnEveryNode(root).filter((file) => leavesNothingBehind(readFileSync(join(root, file), 'utf8')));
}

