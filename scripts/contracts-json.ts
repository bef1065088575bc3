/**
 * Writes the package's contracts as JSON beside the compiled suite (dist/contracts/contract-json),
 * each with the hash of the YAML it came from: the `content-contracts` bin then starts without
 * parsing YAML, and falls back to the YAML whenever it no longer matches. Runs after the build.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { BUILT_JSON_DIR, contentHash } from '../contracts/lib/contract-files.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = `${root}dist/contracts/${BUILT_JSON_DIR}`;
mkdirSync(out, { recursive: true });
for (const name of ['openapi.yaml', 'simulator-control.yaml']) {
  const text = readFileSync(`${root}${name}`, 'utf8');
  writeFileSync(`${out}/${name}.json`, JSON.stringify({ sha256: contentHash(text), doc: parse(text) }));
}
