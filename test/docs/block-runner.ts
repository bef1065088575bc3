import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { root, type FencedBlock } from './markdown.js';
import { projectShims } from './project-shims.js';

/**
 * Runs a document's blocks in order, as a reader following along in one terminal would: a
 * variable or function a shell block defines is there for the blocks after it. Shell blocks run
 * under `bash -euo pipefail`, TypeScript and JavaScript blocks under tsx; each is bounded in time,
 * and whatever it started is stopped with it.
 */
export interface BlockRun {
  /** Where the blocks run and write their files: inside the repository, so that imports resolve. */
  workDir: string;
  /** Applied to each block's text before it runs (for example, the port of the simulator started for the test). */
  rewrite?: (code: string) => string;
  /** Per block; 120 s unless told. */
  timeoutMs?: number;
  /**
   * Run as in a reader's own project, the packed package installed: the blocks (their install
   * block first) make the project; imports reach the installed package, TypeScript runs under
   * the project's own tsx, and `npx` finds only what the project installed (project-shims.ts).
   */
  project?: { tarball: string };
}

export interface BlockFailure {
  block: FencedBlock;
  /** `file:line (lang): why`, then what the block printed. */
  message: string;
}

const SHELL = new Set(['sh', 'bash', 'shell']);

/** The first block that fails, or undefined when all passed. */
export async function runBlocks(blocks: FencedBlock[], run: BlockRun): Promise<BlockFailure | undefined> {
  mkdirSync(run.workDir, { recursive: true });
  // A project of its own, in ES modules, as a reader's would be; a reader's own project is made by its blocks.
  if (!run.project) writeFileSync(join(run.workDir, 'package.json'), '{ "private": true, "type": "module" }\n');
  const bin = run.project ? projectShims(run.workDir, run.project.tarball, CURL) : writeShims(run.workDir);
  const state = join(run.workDir, '.doc-shell-state');
  writeFileSync(state, '');
  for (const block of blocks) {
    const code = run.rewrite ? run.rewrite(block.code) : block.code;
    const name = `block-${block.file.replace(/[^a-z0-9]+/gi, '-')}-${block.line}`;
    let command: string[];
    if (SHELL.has(block.lang)) {
      const script = join(run.workDir, `${name}.sh`);
      writeFileSync(script, shellScript(code, state));
      command = ['bash', script];
    } else {
      const file = join(run.workDir, sourceFileOf(block));
      writeFileSync(file, run.project ? code : sourceImports(code));
      const tsx = run.project ? join(run.workDir, 'node_modules/.bin/tsx') : join(root, 'node_modules/.bin/tsx');
      if (!existsSync(tsx)) return { block, message: `${block.file}:${block.line} (${block.lang}): tsx is not installed in the project: the guide's install block must list it` };
      command = [tsx, file];
    }
    const result = await runBounded(command, run.workDir, { ...process.env, PATH: `${bin}:${process.env.PATH}` }, run.timeoutMs ?? 120_000);
    if (!result.ok) return { block, message: `${block.file}:${block.line} (${block.lang}): ${result.why}\n${result.output.slice(-4000)}` };
  }
  return undefined;
}

/** The file a TypeScript or JavaScript block is saved in: the name the text gives, or one of its place. */
export function sourceFileOf(block: FencedBlock): string {
  return block.fileName ?? `block-${block.file.replace(/[^a-z0-9]+/gi, '-')}-${block.line}.${block.lang.startsWith('t') ? 'ts' : 'js'}`;
}

/**
 * The block between the state of the blocks before it and a dump of what it defined. Only
 * variables the block's shell did not start with are kept, so bash's own are never replayed.
 */
function shellScript(code: string, state: string): string {
  return `set -euo pipefail
__doc_builtin=" $(compgen -v | tr '\\n' ' ') "
source ${JSON.stringify(state)}
${code}
for __doc_var in $(compgen -v); do
  case "$__doc_builtin" in *" $__doc_var "*) continue ;; esac
  case "$__doc_var" in __doc_*) continue ;; esac
  declare -p "$__doc_var"
done > ${JSON.stringify(state)}.next
declare -f >> ${JSON.stringify(state)}.next
mv ${JSON.stringify(state)}.next ${JSON.stringify(state)}
`;
}

/**
 * The package's own name resolves to its TypeScript sources, so that the blocks test the code
 * beside them, as the rest of the suite does, rather than whatever was last built.
 */
function sourceImports(code: string): string {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string; exports: Record<string, { default: string }> };
  return code.replace(/(from\s+|import\s*\(\s*)(['"])([^'"]+)\2/g, (whole, lead: string, quote: string, specifier: string) => {
    if (specifier !== pkg.name && !specifier.startsWith(`${pkg.name}/`)) return whole;
    const entry = pkg.exports[`.${specifier.slice(pkg.name.length)}`];
    if (!entry) return whole;
    const source = join(root, entry.default.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts'));
    return `${lead}${quote}${source}${quote}`;
  });
}

/**
 * Commands a block may call that must not reach a registry: `npx <bin>` runs what is installed
 * here (the package's two commands from its sources) or fails; `curl` fails on an HTTP error
 * unless the block shows the status itself (`-w`, `-i`, `-D`), so an answer that changed from a
 * success to an error fails the block.
 */
function writeShims(workDir: string): string {
  const bin = join(workDir, '.doc-bin');
  mkdirSync(bin, { recursive: true });
  const tsx = join(root, 'node_modules/.bin/tsx');
  const resolve = `case "$cmd" in
  content-sim) exec ${tsx} ${join(root, 'src/cli/main.ts')} "$@" ;;
  content-contracts) exec ${tsx} ${join(root, 'contracts/run.ts')} "$@" ;;
esac
for dir in ${join(root, 'node_modules/.bin')} ${join(root, 'test/runtimes/node_modules/.bin')}; do
  [ -x "$dir/$cmd" ] && exec "$dir/$cmd" "$@"
done
echo "$cmd is not installed: a runnable block installs nothing (mark it illustrative)" >&2
exit 127
`;
  const shims: Record<string, string> = {
    npx: `while [ "\${1:-}" != "\${1#-}" ]; do shift; done\ncmd="$1"; shift\n${resolve}`,
    'content-sim': `cmd=content-sim\n${resolve}`,
    'content-contracts': `cmd=content-contracts\n${resolve}`,
    curl: CURL,
  };
  for (const [name, body] of Object.entries(shims)) {
    writeFileSync(join(bin, name), `#!/usr/bin/env bash\n${body}`);
    chmodSync(join(bin, name), 0o755);
  }
  return bin;
}

/** curl that fails on an HTTP error unless the block shows the status itself. */
const CURL = `real=$(PATH="\${PATH#*:}" command -v curl)
for arg in "$@"; do
  case "$arg" in -w|--write-out|-i|--include|-D|--dump-header|-f|--fail|--fail-with-body|-[a-zA-Z]*[wiDf]*) exec "$real" "$@" ;; esac
done
exec "$real" --fail-with-body "$@"
`;

interface Outcome {
  ok: boolean;
  why: string;
  output: string;
}

/** Runs a command in its own process group; on exit or timeout the whole group is stopped. */
function runBounded(command: string[], cwd: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<Outcome> {
  return new Promise((resolve) => {
    const child = spawn(command[0]!, command.slice(1), { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const stopGroup = () => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // the group has already gone
      }
    };
    const timer = setTimeout(() => {
      stopGroup();
      resolve({ ok: false, why: `still running after ${timeoutMs / 1000} s`, output });
    }, timeoutMs);
    child.on('error', (error) => (clearTimeout(timer), resolve({ ok: false, why: error.message, output })));
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      stopGroup();
      // Let the last chunks of output arrive before reporting.
      setImmediate(() => resolve({ ok: code === 0, why: signal ? `killed by ${signal}` : `exit code ${code}`, output }));
    });
  });
}
