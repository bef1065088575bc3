import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { shippedScenarios } from '../scenarios/shipped.js';
import { parseCommandLine, parseServeOptions, type ServeOptions } from './options.js';
import { UsageError } from './usage-errors.js';

/**
 * `--config FILE` (or SIM_CONFIG): the serve options of a YAML or JSON file, each under its
 * flag's name. The YAML parser is loaded only for a YAML file. Scenario files it names are
 * found beside it; scenarios may also be written out in it.
 */
export async function readConfigFile(argv: string[], env: NodeJS.ProcessEnv): Promise<{ settings: unknown; name: string }> {
  const name = parseCommandLine(argv).values.config ?? env.SIM_CONFIG;
  if (name === undefined) return { settings: {}, name: '' };
  if (name === '') throw new UsageError('--config needs a file');
  let text: string;
  try {
    text = readFileSync(name, 'utf8');
  } catch (error) {
    throw new UsageError(`--config ${name}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`);
  }
  let settings: unknown;
  try {
    settings = name.endsWith('.json') ? JSON.parse(text) : (await import('yaml')).parse(text, { maxAliasCount: 100 });
  } catch (error) {
    throw new UsageError(`--config ${name}: ${(error as Error).message.split('\n')[0]}`);
  }
  return { settings: scenariosBeside(settings, name), name };
}

/** A scenario file named in the config file is found beside it, as an include would be. */
function scenariosBeside(settings: unknown, file: string): unknown {
  const list = (settings as { scenario?: unknown } | null)?.scenario;
  if (!Array.isArray(list) && typeof list !== 'string') return settings;
  const entries = (Array.isArray(list) ? list : [list]).map((entry) =>
    typeof entry === 'string' && !Object.hasOwn(shippedScenarios, entry) && !isAbsolute(entry) ? resolve(dirname(file), entry) : entry,
  );
  return { ...(settings as object), scenario: entries };
}

/** The command line, the environment and the config file, read into serve options. */
export async function loadServeOptions(argv: string[], env: NodeJS.ProcessEnv): Promise<ServeOptions | 'help' | 'version'> {
  const first = parseCommandLine(argv).values;
  if (first.help) return 'help';
  if (first.version) return 'version';
  return parseServeOptions(argv, env, await readConfigFile(argv, env));
}
