/**
 * Where the app's files come from (the contracts, the docs bundle, the dashboard), so that the
 * app itself never touches a file system: the CLI reads them from the package's folder, a
 * browser or an edge runtime hands them over in memory.
 *
 * Names are relative to the package root: `openapi.yaml`, `simulator-control.yaml`,
 * `docs/scalar.js`, `dashboard/index.html`, `dashboard/app.js`, …
 */
export interface AssetSource {
  /** The file's content, or undefined when this source has no such file. */
  read(name: string): Uint8Array | string | undefined;
}

/** Files given in memory, by name: for runtimes without a file system, and for tests. */
export function memoryAssets(files: Readonly<Record<string, Uint8Array | string>>): AssetSource {
  return { read: (name) => (Object.hasOwn(files, name) ? files[name] : undefined) };
}

/** No files at all: the API, /mcp and OAuth are served, the pages built from files answer 404. */
export const noAssets: AssetSource = { read: () => undefined };
