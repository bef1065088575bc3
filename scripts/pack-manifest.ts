/**
 * The packed package.json goes without its `prepare` script; `npm pack` puts it back after.
 *
 * `prepare` builds the package when it is installed from git (npm runs it in the clone). A
 * tarball already holds the build, and npm never runs `prepare` from one, yet npm 11 lists a
 * tarball's `prepare` among the install scripts its user must review: a warning on every
 * consumer's install. So `prepack` builds and takes the script out, and `postpack` puts it
 * back at its place, touching nothing else in the file (it may have been edited meanwhile).
 *
 *   tsx scripts/pack-manifest.ts strip | restore
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

type Manifest = { scripts?: Record<string, string> };

const root = fileURLToPath(new URL('..', import.meta.url));
const manifestPath = join(root, 'package.json');
const savedPath = join(root, 'node_modules/.cache/content-service-simulator/prepare-script.json');

const read = (): Manifest => JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
const write = (manifest: Manifest) => writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);

function strip(): void {
  if (existsSync(savedPath)) restore(); // a pack that stopped before its postpack
  const manifest = read();
  const scripts = Object.entries(manifest.scripts ?? {});
  const at = scripts.findIndex(([name]) => name === 'prepare');
  if (at < 0) return;
  mkdirSync(dirname(savedPath), { recursive: true });
  writeFileSync(savedPath, JSON.stringify({ after: scripts[at - 1]?.[0] ?? null, command: scripts[at]![1] }));
  manifest.scripts = Object.fromEntries(scripts.filter(([name]) => name !== 'prepare'));
  write(manifest);
}

function restore(): void {
  if (!existsSync(savedPath)) return;
  const { after, command } = JSON.parse(readFileSync(savedPath, 'utf8')) as { after: string | null; command: string };
  const manifest = read();
  const scripts = Object.entries(manifest.scripts ?? {}).filter(([name]) => name !== 'prepare');
  const at = after === null ? 0 : scripts.findIndex(([name]) => name === after) + 1;
  scripts.splice(at > 0 || after === null ? at : scripts.length, 0, ['prepare', command]);
  manifest.scripts = Object.fromEntries(scripts);
  write(manifest);
  rmSync(savedPath);
}

const action = process.argv[2];
if (action === 'strip') strip();
else if (action === 'restore') restore();
else throw new Error('usage: tsx scripts/pack-manifest.ts strip | restore');
