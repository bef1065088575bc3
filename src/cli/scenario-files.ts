import { readFileSync } from 'node:fs';
import { ScenarioError } from '../scenarios/calls.js';
import { shippedScenarios } from '../scenarios/shipped.js';
import { readScenarioText, type ScenarioSource } from '../scenarios/source.js';
import type { LoadedScenario } from '../scenarios/types.js';

/** Each `--scenario`: a file (YAML or JSON), or the name of a scenario shipped with the package. */
export function readScenarioFiles(names: readonly string[]): ScenarioSource[] {
  return names.map((name) => {
    if (Object.hasOwn(shippedScenarios, name)) {
      return { value: shippedScenarios[name as keyof typeof shippedScenarios], locate: (path: string) => `${name} (shipped)${path ? ` at ${path}` : ''}` };
    }
    let text: string;
    try {
      text = readFileSync(name, 'utf8');
    } catch (error) {
      throw new Error(`--scenario ${name}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? `no such file, and no shipped scenario of that name (${Object.keys(shippedScenarios).join(', ')})` : (error as Error).message}`);
    }
    return readScenarioText(text, name);
  });
}

/** A refused scenario as lines that name the file, line and column of each problem. */
export function describeScenarioError(error: unknown, sources: readonly ScenarioSource[]): string | undefined {
  if (!(error instanceof ScenarioError)) return undefined;
  const source = sources[error.scenarioIndex ?? 0];
  const lines = error.problems.map((p) => `  ${source ? source.locate(p.path) : ''}: ${p.path || 'scenario'}: ${p.message}`);
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
