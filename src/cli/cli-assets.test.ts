import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cliAssets } from './cli-assets.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const text = (content: Uint8Array | string | undefined) => (content === undefined ? undefined : Buffer.from(content).toString('utf8'));

describe('the files the CLI serves, outside a single executable', () => {
  it('are the package’s own files, under the names the app asks for', () => {
    const assets = cliAssets();
    expect(text(assets.read('openapi.yaml'))).toBe(readFileSync(`${root}openapi.yaml`, 'utf8'));
    expect(text(assets.read('dashboard/index.html'))).toBe(readFileSync(`${root}src/web/dashboard/index.html`, 'utf8'));
    expect(assets.read('docs/scalar.js')?.length).toBeGreaterThan(1_000_000);
    expect(assets.read('dashboard/missing.js')).toBeUndefined();
    expect(assets.read('../package.json')).toBeUndefined();
  });
});
