import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

/**
 * The package root: the nearest folder above this file that holds openapi.yaml. The same
 * code runs from contracts/lib (tsx, in the repository) and from dist/contracts/lib (the
 * compiled `content-contracts` bin of an installed package), at different depths.
 */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'openapi.yaml'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error('contracts: openapi.yaml not found above the suite');
    dir = parent;
  }
}

const parsed = new Map<string, unknown>();

/**
 * A contract document, parsed once per run (YAML parsing of openapi.yaml costs about a third
 * of a second; the suite, its validator and the proxy each read it). Callers get their own
 * copy, since some rewrite what they read. A JSON form of the package's own contract,
 * written by the build with the hash of the YAML it came from, skips the YAML parser.
 */
export function readContract(path: string): any {
  let doc = parsed.get(path);
  if (doc === undefined) {
    const text = readFileSync(path, 'utf8');
    doc = fromBuiltJson(path, text) ?? parse(text);
    parsed.set(path, doc);
  }
  return structuredClone(doc);
}

export const BUILT_JSON_DIR = 'contract-json';

export function contentHash(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function fromBuiltJson(path: string, text: string): unknown {
  const built = join(dirname(fileURLToPath(import.meta.url)), '..', BUILT_JSON_DIR, `${basename(path)}.json`);
  if (!existsSync(built)) return undefined;
  try {
    const { sha256, doc } = JSON.parse(readFileSync(built, 'utf8')) as { sha256: string; doc: unknown };
    return sha256 === contentHash(text) ? doc : undefined;
  } catch {
    return undefined;
  }
}
