/**
 * The whole CLI, dependencies included, as one CommonJS script: the form a single executable
 * runs (its injected script loads nothing from disk but Node's built-in modules, and in
 * CommonJS it may also use V8's code cache, which `import()` in an ES module main rules out).
 */
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

export async function bundleCli(outfile: string): Promise<void> {
  await build({
    absWorkingDir: root,
    entryPoints: ['src/cli/main.ts'],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node26',
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
    // The few `import.meta.url` uses (finding the package's files when not embedded) get the bundle's own path.
    define: { 'import.meta.url': 'importMetaUrl' },
    inject: [fileURLToPath(new URL('import-meta-url.ts', import.meta.url))],
  });
}
