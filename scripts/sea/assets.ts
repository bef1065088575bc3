/**
 * The files the simulator serves, under the names it asks for them (src/app/assets.ts), mapped
 * to where they are in a development checkout: what the single executable embeds.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

export function seaAssets(): Record<string, string> {
  const assets: Record<string, string> = {
    'openapi.yaml': join(root, 'openapi.yaml'),
    'simulator-control.yaml': join(root, 'simulator-control.yaml'),
    // The API reference's browser bundle (Scalar), as the npm package has it: put in dist/web by the build (scripts/copy-docs-assets.ts).
    'docs/scalar.js': join(root, 'dist/web/scalar.js'),
  };
  const dashboard = join(root, 'src/web/dashboard');
  for (const file of readdirSync(dashboard)) {
    if (/\.(html|js|css)$/.test(file) && !file.endsWith('.test.js')) assets[`dashboard/${file}`] = join(dashboard, file);
  }
  const missing = Object.values(assets).filter((path) => !existsSync(path));
  if (missing.length > 0) throw new Error(`missing files to embed (run npm install first): ${missing.join(', ')}`);
  return assets;
}
