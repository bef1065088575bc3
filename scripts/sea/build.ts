/**
 * `content-sim` as one executable file that runs without Node installed: the CLI bundled with
 * its dependencies (bundle.ts), the files it serves embedded as assets (assets.ts), injected
 * into a Node binary with Node's own `--build-sea` (single executable applications).
 *
 *   npm run build:sea [-- --out dir] [--node path] [--executable path] [--no-strip]
 *
 * --node        the Node that runs --build-sea (25.5 or later; default: this one, or the test runtimes' Node 26)
 * --executable  the Node binary of the target platform, the same version as --node (default: --node itself)
 * --out         where the executable goes (default: dist-sea/)
 * --no-strip    keep the symbols of a Linux Node binary (stripped by default when `strip` is installed)
 *
 * See docs/operations/single-executable.md for macOS and Windows.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { seaAssets } from './assets.js';
import { bundleCli } from './bundle.js';
import { binaryTarget, builderNode, nodeVersion, runnableVersion, strippedCopy, type BinaryFormat } from './node-binary.js';

export interface SeaBuildOptions {
  outDir: string;
  node?: string;
  executable?: string;
  strip?: boolean;
}

export interface SeaBuild {
  executable: string;
  format: BinaryFormat;
  nodeVersion: string;
  bytes: number;
  milliseconds: number;
  /** What is left to do on another machine (signing a macOS binary built elsewhere). */
  notes: string[];
}

export async function buildSea(options: SeaBuildOptions): Promise<SeaBuild> {
  const started = performance.now();
  const outDir = resolve(options.outDir);
  const work = join(outDir, 'sea-work');
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });

  const node = builderNode(options.node);
  const version = nodeVersion(node);
  let target = options.executable ? resolve(options.executable) : node;
  const { format } = binaryTarget(target);
  const notes: string[] = [];
  // A target that runs here is of this platform: it must be the builder's version, and may use its code cache.
  const targetVersion = runnableVersion(target);
  if (targetVersion !== undefined && targetVersion !== version) {
    throw new Error(`--executable is Node ${targetVersion} but --node is ${version}: the blob only runs in the Node version that made it`);
  }
  if (format === 'elf' && options.strip !== false) target = strippedCopy(target, join(work, 'node')) ?? target;

  const main = join(work, 'content-sim.cjs');
  await bundleCli(main);
  const executable = join(outDir, format === 'pe' ? 'content-sim.exe' : 'content-sim');
  const config = {
    main,
    mainFormat: 'commonjs',
    executable: target,
    output: executable,
    disableExperimentalSEAWarning: true,
    // V8's code cache only loads on the platform that compiled it: a cross build goes without.
    useCodeCache: targetVersion === version,
    useSnapshot: false,
    assets: seaAssets(),
  };
  const configPath = join(work, 'sea-config.json');
  writeFileSync(configPath, JSON.stringify(config, null, 2));
  const built = spawnSync(node, ['--build-sea', configPath], { encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`node --build-sea failed (${built.status}): ${built.stderr || built.stdout}`);

  if (format === 'mach-o') {
    // macOS refuses to run a Mach-O binary whose signature no longer matches: an ad hoc signature is enough to run it.
    const signed = process.platform === 'darwin' && spawnSync('codesign', ['--sign', '-', executable], { stdio: 'inherit' }).status === 0;
    if (!signed) notes.push(`sign it on macOS before running it: codesign --sign - ${executable}`);
  }
  rmSync(work, { recursive: true, force: true });
  return { executable, format, nodeVersion: version, bytes: statSync(executable).size, milliseconds: Math.round(performance.now() - started), notes };
}


async function cli(): Promise<void> {
  const { values } = parseArgs({
    options: { out: { type: 'string', default: 'dist-sea' }, node: { type: 'string' }, executable: { type: 'string' }, 'no-strip': { type: 'boolean', default: false } },
  });
  // The contracts embedded in the engine, from the YAML as it is now (as `npm run build` does).
  await import('../embed-openapi.js');
  const result = await buildSea({ outDir: values.out, node: values.node, executable: values.executable, strip: !values['no-strip'] });
  const mb = (result.bytes / 1024 / 1024).toFixed(1);
  process.stdout.write(`${result.executable}: ${mb} MiB, Node ${result.nodeVersion} (${result.format}), built in ${(result.milliseconds / 1000).toFixed(1)} s\n`);
  for (const note of result.notes) process.stdout.write(`note: ${note}\n`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  cli().catch((error: Error) => {
    process.stderr.write(`build:sea: ${error.message}\n`);
    process.exitCode = 1;
  });
}
