/**
 * The two commands (`content-sim`, `content-contracts`) as bundles: one file each for our own
 * modules instead of about two hundred, which Node would resolve and compile one by one at
 * every start. The measured start of the CLI to its first answer went from 3.5 to 2.6 times a
 * bare node:http script (bench/startup.bench.ts), then to about 2 with what follows for the
 * CLI: ajv's compiler loaded only if ever needed, zod bundled, whitespace left out. Other
 * dependencies stay in node_modules; what is loaded on demand (the MCP server) stays a
 * separate chunk.
 * The library entry points (`dist/index.js`, `./msw`, `./mcp`) stay as tsc wrote them.
 * Beside the suite, the package's contracts parsed as JSON, keyed by the hash of their text.
 */
import { build, type Plugin } from 'esbuild';
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const root = fileURLToPath(new URL('..', import.meta.url));

const common = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  logLevel: 'warning',
  absWorkingDir: root,
} as const;

/**
 * ajv's compiler (about two hundred CommonJS files) is needed only for an operation without a
 * validator generated at build time, which the CLI never meets: src/contract/ajv.ts gets
 * stand-ins that load it with `require` on first use instead of at every start.
 */
const lazyAjv: Plugin = {
  name: 'lazy-ajv',
  setup(plugin) {
    plugin.onResolve({ filter: /^(ajv\/dist\/2020\.js|ajv-formats)$/ }, (args) =>
      args.importer.endsWith('/src/contract/ajv.ts') ? { path: args.path, namespace: 'lazy-ajv' } : undefined,
    );
    plugin.onLoad({ filter: /.*/, namespace: 'lazy-ajv' }, (args) => ({
      resolveDir: root,
      contents: [
        `import { createRequire } from 'node:module';`,
        `const load = () => createRequire(import.meta.url)(${JSON.stringify(args.path)});`,
        args.path === 'ajv-formats'
          ? `export default function addFormats(...args) { return load()(...args); }`
          : `export class Ajv2020 { constructor(...args) { return new (load().Ajv2020)(...args); } }`,
      ].join('\n'),
    }));
  },
};

/**
 * zod (about eighty ES modules, each resolved and compiled apart) is bundled into the CLI for
 * the snapshot schemas, loaded at every start. The MCP server, loaded on demand, keeps the
 * package's own zod, the one the MCP SDK reads its tool schemas with.
 */
const zodForMcpOnly: Plugin = {
  name: 'zod-external-for-mcp',
  setup(plugin) {
    plugin.onResolve({ filter: /^zod(\/|$)/ }, (args) => (args.importer.includes('/src/mcp/') ? { path: args.path, external: true } : undefined));
  },
};

/**
 * The generated validators' runtime helpers (ajv's ucs2length and equal with fast-deep-equal,
 * ajv-formats' formats: four small CommonJS files) bundled in: otherwise Node resolves each in
 * node_modules, reads its package.json and scans it for its exports at every start.
 */
const ajvRuntimeInlined: Plugin = {
  name: 'ajv-runtime-inlined',
  setup(plugin) {
    const resolve = createRequire(`${root}package.json`).resolve;
    plugin.onResolve({ filter: /^(ajv\/dist\/runtime\/[a-z0-9]+\.js|ajv-formats\/dist\/formats\.js)$/ }, (args) => ({ path: resolve(args.path) }));
  },
};

// Chunks are named by their hash: those of earlier builds would otherwise pile up in the package.
rmSync(`${root}dist/cli/chunks`, { recursive: true, force: true });
rmSync(`${root}dist/contracts/chunks`, { recursive: true, force: true });
const dependencies = Object.keys(JSON.parse(readFileSync(`${root}package.json`, 'utf8')).dependencies as Record<string, string>);
const inlined = new Set(['zod', '@noble/hashes']);
await build({
  ...common,
  packages: undefined,
  external: dependencies.filter((name) => !inlined.has(name)).flatMap((name) => [name, `${name}/*`]),
  plugins: [lazyAjv, zodForMcpOnly, ajvRuntimeInlined],
  // Less text for V8 to scan at start (the generated validators are most of it); names stay, for stack traces.
  minifyWhitespace: true,
  entryPoints: { main: 'src/cli/main.ts' },
  outdir: 'dist/cli',
});
await build({ ...common, entryPoints: { run: 'contracts/run.ts' }, outdir: 'dist/contracts' });

// The package's contracts, parsed, beside the bundled suite (contracts/shared/openapi-model.ts reads
// them when a contract's text hashes the same, instead of parsing its YAML at every start).
const documents: Record<string, unknown> = {};
for (const name of ['openapi.yaml', 'simulator-control.yaml']) {
  const text = readFileSync(`${root}${name}`, 'utf8');
  documents[createHash('sha256').update(text).digest('hex')] = parse(text);
}
writeFileSync(`${root}dist/contracts/contract-documents.json`, JSON.stringify(documents));
