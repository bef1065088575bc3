import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AssetSource } from './assets.js';

/** Where each asset name is looked for, first found wins: the built copy, then the sources. */
function candidates(root: string, name: string): string[] {
  if (name === 'docs/scalar.js') return [join(root, 'dist/web/scalar.js')]; // put there by the build, which the install runs
  if (name.startsWith('dashboard/')) return [join(root, 'dist/web', name), join(root, 'src/web', name)];
  return [join(root, name)];
}

/** The folder that holds openapi.yaml: the package root, from the sources or from dist. */
function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'openapi.yaml')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

/** The package's own files, read once each and kept: what the CLI and the express adapter serve. */
export function fileSystemAssets(root = packageRoot()): AssetSource {
  const cache = new Map<string, Buffer | null>();
  return {
    read(name) {
      if (name.includes('..')) return undefined;
      let content = cache.get(name);
      if (content === undefined) {
        const path = candidates(root, name).find((candidate) => existsSync(candidate));
        content = path ? readFileSync(path) : null;
        cache.set(name, content);
      }
      return content ?? undefined;
    },
  };
}
