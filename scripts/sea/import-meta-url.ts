/**
 * Stands in for `import.meta.url` in the CommonJS bundle (esbuild leaves it empty there):
 * the bundle's own file, or in the single executable, the executable itself.
 */
import { pathToFileURL } from 'node:url';

export const importMetaUrl = pathToFileURL(__filename).href;
