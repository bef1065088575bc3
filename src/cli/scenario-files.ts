import { readFileSync } from 'node:fs';
import { ScenarioError } from '../scenarios/calls.js';
import { shippedScenarios } from '../scenarios/shipped.js';
import type { ScenarioSource } from '../scenarios/source.js';
import type { LoadedScenario } from '../scenarios/types.js';

/** Each `--scenario`: a file (YAML or JSON), or the name of a scenario shipped with the package. */
export async function readScenarioFiles(names: ReadonlyArray<string | Record<string, unknown>>): Promise<ScenarioSource[]> {
  // The YAML parser is loaded only when a file is read: a start without one never loads it.
  const files = names.some((name) => typeof name === 'string' && !Object.hasOwn(shippedScenarios, name));
  const { readScenarioText } = files ? await import('../scenarios/source.js') : { readScenarioText: undefined };
  return names.map((name, i) => {
    if (typeof name !== 'string') return { value: name, locate: (path: string) => `the config file's scenario ${i + 1}${path ? ` at ${path}` : ''}`, position: () => undefined };
    if (Object.hasOwn(shippedScenarios, name)) {
      return { value: shippedScenarios[name as keyof typeof shippedScenarios], locate: (path: string) => `${name} (shipped)${path ? ` at ${path}` : ''}`, position: () => undefined };
    }
    let text: string;
    try {
      text = readFileSync(name, 'utf8');
    } catch (error) {
      throw new Error(`--scenario ${name}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? `no such file, and no shipped scenario of that name (${Object.keys(shippedScenarios).join(', ')})` : (error as Error).message}`);
    }
    return readScenarioText!(text, name);
  });
}

/** A refused scenario as lines that name the file, line and column of each problem. */
export function describeScenarioError(error: unknown, sources: readonly ScenarioSource[]): string | undefined {
  if (!(error instanceof ScenarioError)) return undefined;
  const source = sources[error.scenarioIndex ?? 0];
  // In the order they stand in the file, as an editor lists them.
  const located = error.problems.map((p) => ({ at: source ? source.locate(p.path) : '', p }));
  const place = (at: string) => /:(\d+):(\d+)$/.exec(at)?.slice(1).map(Number) ?? [0, 0];
  located.sort((a, b) => place(a.at)[0]! - place(b.at)[0]! || place(a.at)[1]! - place(b.at)[1]!);
  const lines = located.map(({ at, p }) => `  ${at}: ${p.path || 'scenario'}: ${p.message}`);
  return `the scenario cannot be loaded:\n${lines.join('\n')}\n`;
}

/** What the start-up banner says of each loaded scenario: its accounts and their keys. */
export function scenarioBanner(loaded: readonly LoadedScenario[]): string {
  const lines: string[] = [];
  for (const scenario of loaded) {
    lines.push(`Scenario ${scenario.scenario}:`);
    for (const [name, account] of Object.entries(scenario.accounts)) {
      lines.push(`  account ${name} (${account.accountId}), now ${account.now}`);
      for (const [keyName, key] of Object.entries(account.keys)) lines.push(`    key ${keyName}: ${key}`);
    }
  }
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}
