/**
 * The REST-only browser bundle (`content-service-simulator/msw/rest`): src/adapters/msw-rest.ts
 * and what it reaches, as one ES module for pages (msw stays the page's own import). Four
 * modules are replaced in it, each by what that bundle needs of it:
 * - the contracts it embeds keep what routing and validation read (no descriptions, summaries
 *   or examples: nothing in the bundle serves the documents);
 * - ajv's compiler, needed only for an operation without a validator generated at build time:
 *   every operation has one (checked here), so a stand-in that says so;
 * - the snapshot schema and its MCP tasks part (zod), which check a restored simulation: this
 *   bundle restores no snapshot, and says so on `/_sim/restore` and `/_sim/reset`;
 * - the OAuth sign-in pages: it routes nothing under /oauth to the simulator.
 * Run by `npm run build` (writes dist/browser/msw-rest.js); the bench and the browser test
 * build it in memory with `buildRestBundle`.
 */
import { build, type BuildOptions, type Plugin } from 'esbuild';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { parse } from 'yaml';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Keys that only document: dropped, except where they name a property (a target's `description`). */
const DOCUMENTATION = new Set(['description', 'summary', 'example', 'examples', 'externalDocs', 'x-inferred', 'tags', 'info', 'servers']);

function slim(node: unknown, parentKey = ''): unknown {
  if (Array.isArray(node)) return node.map((item) => slim(item));
  if (typeof node !== 'object' || node === null) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (parentKey !== 'properties' && DOCUMENTATION.has(key)) continue;
    out[key] = slim(value, key);
  }
  return out;
}

const slimContracts: Plugin = {
  name: 'slim-contracts',
  setup(plugin) {
    plugin.onLoad({ filter: /src\/contract\/openapi\.generated\.ts$/ }, () => {
      const document = (file: string) => JSON.stringify(JSON.stringify(slim(parse(readFileSync(`${root}${file}`, 'utf8')))));
      return {
        loader: 'ts',
        contents: `export const serviceDocument: unknown = JSON.parse(${document('openapi.yaml')});\nexport const controlDocument: unknown = JSON.parse(${document('simulator-control.yaml')});\n`,
      };
    });
  },
};

const noRuntimeCompiler: Plugin = {
  name: 'no-runtime-compiler',
  setup(plugin) {
    plugin.onLoad({ filter: /src\/contract\/ajv\.ts$/ }, () => ({
      loader: 'ts',
      contents: `export function createAjv(): never { throw new Error('this bundle validates with the validators generated at build time only'); }\nexport type ErrorObject = { instancePath: string; message?: string; keyword: string; params: Record<string, unknown> };\nexport type ValidateFunction = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };\n`,
    }));
  },
};

/** The OAuth sign-in pages: the bundle routes nothing under /oauth to the simulator, so they are never drawn. */
const noSignInPages: Plugin = {
  name: 'no-sign-in-pages',
  setup(plugin) {
    plugin.onLoad({ filter: /src\/oauth\/authorize-page\.ts$/ }, () => ({
      loader: 'ts',
      contents: [
        `const absent = (): never => { throw new Error('this bundle serves no OAuth sign-in page'); };`,
        `export const pageHeaders = (_origin?: string): Record<string, string> => absent();`,
        `export const authorizePage = (..._args: unknown[]): string => absent();`,
        `export const errorPage = (_title: string, _detail: string): string => absent();`,
      ].join('\n'),
    }));
  },
};

const noSnapshotRestore: Plugin = {
  name: 'no-snapshot-restore',
  setup(plugin) {
    // The MCP tasks' part of a snapshot is checked with zod too: never reached without a restore.
    plugin.onLoad({ filter: /src\/state\/mcp-tasks-snapshot\.ts$/ }, () => ({
      loader: 'ts',
      contents: `export const savedTask: any = undefined;\nexport const legacyMcpTasks: any = undefined;\nexport function liftSavedTasks(_snapshot: unknown): void {}\nexport function placeMcpTasks(_snapshot: unknown): void {}\n`,
    }));
    plugin.onLoad({ filter: /src\/state\/snapshot-schema\.ts$/ }, () => ({
      loader: 'ts',
      contents: [
        `export const SNAPSHOT_FORMAT = 'content-sim-state';`,
        `export const SNAPSHOT_VERSION = 1;`,
        `const refusal = { success: false as const, error: { issues: [{ path: [], message: 'this bundle (content-service-simulator/msw/rest) restores no snapshot: reset accounts one by one (POST /_sim/accounts/{accountId}/reset), or use content-service-simulator/msw' }] } };`,
        `export const simulationSnapshot = { type: 'refused', safeParse: (_input: unknown) => refusal as typeof refusal | { success: true; data: any } };`,
        `export const SNAPSHOT_PLAN = { items: null };`,
        `export type SimulationSnapshot = any;`,
        `export type AccountSnapshot = any;`,
      ].join('\n'),
    }));
  },
};

/** Every operation of both contracts has a validator generated at build time: the stand-in compiler is never reached. */
async function assertEveryValidatorGenerated(): Promise<void> {
  const { readOperations } = await import('../src/contract/operations.js');
  const { bodySchema, validatorKey } = await import('../src/contract/validator-schemas.js');
  const { byKey: body } = await import('../src/contract/validators-body.generated.js');
  const { byKey: params } = await import('../src/contract/validators-params.generated.js');
  for (const [file, id] of [['openapi.yaml', 'service'], ['simulator-control.yaml', 'control']] as const) {
    for (const operation of readOperations(parse(readFileSync(`${root}${file}`, 'utf8')), id)) {
      const missing = (['path', 'query', 'header'] as const).filter((where) => !(validatorKey(operation, where) in params));
      if (bodySchema(operation) && !(validatorKey(operation, 'body') in body)) missing.push('body' as never);
      if (missing.length > 0) throw new Error(`no generated validator for ${operation.operationId} (${missing.join(', ')})`);
    }
  }
}

/** One ES module for a page, minified, msw left to the page's own import: how both bundles are measured. */
const PAGE_MODULE: BuildOptions = { bundle: true, format: 'esm', platform: 'browser', target: 'es2022', minify: true, external: ['msw', 'msw/*'] };

export interface RestBundle {
  code: Uint8Array;
  bytes: number;
  gzipBytes: number;
  /** The packages whose code is in it, and every file (ours and theirs). */
  packages: string[];
  inputs: string[];
}

export async function buildRestBundle(entry = 'src/adapters/msw-rest.ts'): Promise<RestBundle> {
  await assertEveryValidatorGenerated();
  const result = await build({
    absWorkingDir: root,
    entryPoints: [entry],
    ...PAGE_MODULE,
    write: false,
    metafile: true,
    logLevel: 'warning',
    plugins: [slimContracts, noRuntimeCompiler, noSnapshotRestore, noSignInPages],
  });
  const code = (result.outputFiles[0] as { contents: Uint8Array }).contents;
  const packages = new Set<string>();
  for (const input of Object.keys(result.metafile.inputs)) {
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
    if (match) packages.add(match[1] as string);
  }
  return { code, bytes: code.byteLength, gzipBytes: gzipSync(code, { level: 9 }).byteLength, packages: [...packages].sort(), inputs: Object.keys(result.metafile.inputs) };
}

/**
 * The whole surface a page gets from `content-service-simulator/msw` (the handlers with
 * createSimulator, MCP and zod included), built as the REST bundle is: what that bundle is
 * measured against (the bench, and the frontend guide's sizes).
 */
export async function buildWholeBundle(): Promise<{ bytes: number; gzipBytes: number }> {
  const whole = await build({
    absWorkingDir: root,
    stdin: { contents: "export { createMswHandlers } from './src/adapters/msw.js'; export { createSimulator } from './src/simulator.js';", resolveDir: root, loader: 'ts' },
    ...PAGE_MODULE,
    write: false,
    logLevel: 'error',
  });
  const code = (whole.outputFiles[0] as { contents: Uint8Array }).contents;
  return { bytes: code.byteLength, gzipBytes: gzipSync(code, { level: 9 }).byteLength };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const bundle = await buildRestBundle();
  mkdirSync(`${root}dist/browser`, { recursive: true });
  writeFileSync(`${root}dist/browser/msw-rest.js`, bundle.code);
  process.stdout.write(`dist/browser/msw-rest.js: ${(bundle.bytes / 1024).toFixed(1)} KiB, ${(bundle.gzipBytes / 1024).toFixed(1)} KiB gzipped\n`);
}
