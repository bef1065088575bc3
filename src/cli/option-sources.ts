import { closestName } from '../errors/closest-name.js';
import { UsageError } from './usage-errors.js';

/**
 * Where each `content-sim serve` option may come from, all read from the one option table:
 * the command line (`--journal-size 50`), the environment (`SIM_JOURNAL_SIZE=50`) and a
 * config file (`journal-size: 50`), flags over environment over file. An option added to the
 * table has all three, under names derived from its flag: nothing else to write.
 */
export type OptionTable = Record<string, { type: 'string' | 'boolean'; multiple?: boolean; short?: string }>;
export type OptionValue = string | boolean | Array<string | Record<string, unknown>>;
export type OptionValues = Record<string, OptionValue | undefined>;
export type OptionSource = 'flag' | 'environment' | 'file';

/** What is not a setting of the server: asking for help, naming the file itself. */
export const NOT_SETTINGS = new Set(['help', 'version', 'config', 'print-config']);

/** The names the environment has long used where they differ from SIM_<FLAG>. */
const ENV_NAMES: Record<string, string> = { port: 'PORT', host: 'HOST', frozen: 'SIM_FROZEN_AT' };

/** `journal-size` → `SIM_JOURNAL_SIZE` (and the few long-standing exceptions, PORT and HOST). */
export function envName(flag: string): string {
  return ENV_NAMES[flag] ?? `SIM_${flag.toUpperCase().replace(/-/g, '_')}`;
}

/** Options whose value is a secret: shown as `…` by --print-config. */
export const SECRET_OPTIONS = new Set(['control-token']);

const TRUE = new Set(['1', 'true', 'yes', 'on']);
const FALSE = new Set(['0', 'false', 'no', 'off', '']);

/** The options the environment sets: booleans as 1/0 (true/false), repeated ones separated by commas. */
export function fromEnvironment(env: NodeJS.ProcessEnv, table: OptionTable): OptionValues {
  const values: OptionValues = {};
  for (const [flag, spec] of Object.entries(table)) {
    if (NOT_SETTINGS.has(flag)) continue;
    const text = env[envName(flag)];
    if (text === undefined) continue;
    if (spec.type === 'boolean') {
      const word = text.trim().toLowerCase();
      if (!TRUE.has(word) && !FALSE.has(word)) throw new UsageError(`${envName(flag)} is 1 or 0 (true or false), not ${text}`);
      values[flag] = TRUE.has(word);
    } else values[flag] = spec.multiple ? text.split(',').map((s) => s.trim()).filter(Boolean) : text;
  }
  return values;
}

/** A config file's settings, checked against the table: an unknown key is refused with the nearest and the list. */
export function fromFile(settings: unknown, file: string, table: OptionTable): OptionValues {
  if (typeof settings !== 'object' || settings === null || Array.isArray(settings)) throw new UsageError(`${file}: a config file holds one mapping of options (port: 4010, …)`);
  const known = Object.keys(table).filter((flag) => !NOT_SETTINGS.has(flag));
  const values: OptionValues = {};
  for (const [key, value] of Object.entries(settings as Record<string, unknown>)) {
    if (key === '$schema') continue;
    const spec = table[key];
    if (!spec || NOT_SETTINGS.has(key)) {
      const guess = closestName(key, known);
      throw new UsageError(`${file}: ${key} is not an option${guess ? `: did you mean ${guess}?` : ''} (the options are ${known.join(', ')})`);
    }
    if (value === null || value === undefined) continue;
    if (spec.type === 'boolean') {
      if (typeof value !== 'boolean') throw new UsageError(`${file}: ${key} is true or false, not ${JSON.stringify(value)}`);
      values[key] = value;
    } else if (spec.multiple) {
      const list = Array.isArray(value) ? value : [value];
      if (list.some((v) => typeof v !== 'string' && (typeof v !== 'object' || v === null || Array.isArray(v)))) {
        throw new UsageError(`${file}: ${key} lists file names, shipped names or scenarios written out`);
      }
      values[key] = list as Array<string | Record<string, unknown>>;
    } else {
      if (typeof value !== 'string' && typeof value !== 'number') throw new UsageError(`${file}: ${key} takes a value such as it takes on the command line, not ${JSON.stringify(value)}`);
      values[key] = String(value);
    }
  }
  return values;
}

/** Flags over environment over file, and where each setting came from. */
export function layered(flags: OptionValues, env: OptionValues, file: OptionValues): { values: OptionValues; from: Record<string, OptionSource> } {
  const values: OptionValues = {};
  const from: Record<string, OptionSource> = {};
  for (const [source, layer] of [['file', file], ['environment', env], ['flag', flags]] as const) {
    for (const [flag, value] of Object.entries(layer)) {
      if (value === undefined) continue;
      values[flag] = value;
      from[flag] = source;
    }
  }
  return { values, from };
}

/** `--print-config`: each setting given, as a config file would hold it, with where it came from; secrets hidden. */
export function formatEffective(values: OptionValues, from: Record<string, OptionSource>, file: string | undefined): string {
  const lines = ['# content-sim serve: the effective configuration (flags over environment over file; every option not listed is at its default)'];
  for (const [flag, value] of Object.entries(values)) {
    if (value === undefined || NOT_SETTINGS.has(flag)) continue;
    const shown = SECRET_OPTIONS.has(flag) ? '"…"' : JSON.stringify(value);
    const source = from[flag] === 'flag' ? `--${flag}` : from[flag] === 'environment' ? envName(flag) : file;
    lines.push(`${flag}: ${shown}  # ${source}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The JSON Schema of a config file, from the option table: what an editor completes and checks. */
export function configSchema(table: OptionTable): Record<string, unknown> {
  const properties: Record<string, unknown> = { $schema: { type: 'string' } };
  for (const [flag, spec] of Object.entries(table)) {
    if (NOT_SETTINGS.has(flag)) continue;
    properties[flag] = spec.type === 'boolean'
      ? { type: 'boolean', description: `--${flag} (env ${envName(flag)})` }
      : spec.multiple
        ? { type: 'array', items: { anyOf: [{ type: 'string' }, { $ref: 'https://content-service-simulator.dev/scenario.schema.json' }] }, description: `--${flag}, repeated (env ${envName(flag)}, separated by commas): file names (relative to the config file), shipped names, or scenarios written out` }
        : { type: ['string', 'number'], description: `--${flag} (env ${envName(flag)})` };
  }
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://content-service-simulator.dev/serve-config.schema.json',
    title: 'content-sim serve --config',
    description: 'Every option of content-sim serve under its flag\'s name; flags and environment variables override the file.',
    type: 'object',
    additionalProperties: false,
    properties,
  };
}
