import * as sea from 'node:sea';
import type { AssetSource } from '../app/assets.js';
import { fileSystemAssets } from '../app/file-assets.js';

/**
 * The files the CLI serves (the contracts, the docs bundle, the dashboard): the copies
 * embedded in the single executable when it runs as one (scripts/sea/build.ts puts them
 * there under the same names), the package's own files otherwise.
 */
export function cliAssets(): AssetSource {
  return sea.isSea() ? embeddedAssets() : fileSystemAssets();
}

/** Assets of the single executable, copied out of it once each on first use. */
function embeddedAssets(): AssetSource {
  const cache = new Map<string, Uint8Array | null>();
  return {
    read(name) {
      let content = cache.get(name);
      if (content === undefined) {
        content = embedded(name);
        cache.set(name, content);
      }
      return content ?? undefined;
    },
  };
}

/** node:sea throws for a name it does not hold: here that is an absent file, like one missing on disk. */
function embedded(name: string): Uint8Array | null {
  try {
    return new Uint8Array(sea.getAsset(name));
  } catch {
    return null;
  }
}
