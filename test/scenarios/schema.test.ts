/** scenario.schema.json (for editors) and the simulator's own check of a scenario agree. */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { scenarioProblems } from '../../src/scenarios/check.js';
import { shippedScenarios } from '../../src/scenarios/shipped.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const schema = JSON.parse(readFileSync(new URL('../../scenario.schema.json', import.meta.url), 'utf8')) as object;
const validate = addFormats(new Ajv2020({ allErrors: true, strict: false })).compile(schema);

describe('scenario.schema.json', () => {
  it('accepts every shipped scenario, as the simulator does', () => {
    for (const [name, scenario] of Object.entries(shippedScenarios)) {
      expect(validate(scenario), `${name}: ${JSON.stringify(validate.errors)}`).toBe(true);
      expect(scenarioProblems(scenario), name).toEqual([]);
    }
  });

  it('refuses what the simulator refuses', () => {
    const base = { scenario: 'x', accounts: [{ name: 'user', targets: [{ name: 'A', slug: 'a' }] }] };
    const wrong = [
      { ...base, accounts: [] },
      { ...base, accounts: [{ name: 'user', balance: -1 }] },
      { ...base, accounts: [{ name: 'user', keys: [{ name: 'k', scopes: ['admin'] }] }] },
      { ...base, accounts: [{ ...base.accounts[0], builds: [{ name: 'b', target: 'a', kind: 'blog', objective: 'o', status: 'done' }] }] },
      { ...base, accounts: [{ ...base.accounts[0], builds: [{ name: 'b', target: 'a', kind: 'blog', objective: 'o', status: 'failed' }] }] },
      { ...base, accounts: [{ ...base.accounts[0], builds: [{ name: 'b', target: 'a', kind: 'blog', objective: 'o', status: 'completed', failedAt: 'drafting' }] }] },
      { ...base, accounts: [{ name: 'user', clock: { at: 'yesterday' } }] },
      { ...base, surprise: true },
    ];
    for (const scenario of wrong) {
      expect(validate(scenario), JSON.stringify(scenario)).toBe(false);
      expect(scenarioProblems(scenario).length, JSON.stringify(scenario)).toBeGreaterThan(0);
    }
  });
});
