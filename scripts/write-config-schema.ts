/**
 * Writes serve-config.schema.json from the serve options' table, so that a new option is one
 * entry of that table: `tsx scripts/write-config-schema.ts` (src/cli/config-file.test.ts fails
 * until the shipped schema is the table's).
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { configSchema } from '../src/cli/option-sources.js';
import { SERVE_OPTIONS } from '../src/cli/options.js';

const file = fileURLToPath(new URL('../serve-config.schema.json', import.meta.url));
writeFileSync(file, `${JSON.stringify(configSchema(SERVE_OPTIONS), null, 2)}\n`);
console.log(`wrote ${file}`);
