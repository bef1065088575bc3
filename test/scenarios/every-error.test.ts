/**
 * A refused scenario names every problem at once, as the REST API lists every field at
 * fault: those of its shape and those the API's own calls would meet, in the CLI (each at its
 * file's line and column, in the file's order), the control API and in-process alike.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app/create-app.js';
import { ScenarioError } from '../../src/scenarios/calls.js';
import { createSimulator } from '../../src/simulator.js';
import { assertContract } from '../support/contract.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Line 9: a kind the API refuses (a request's problem); line 13: a second; line 17: a scope the scenario's shape refuses. */
const TWO_KINDS_OF_WRONG = `scenario: two-wrongs
accounts:
  - name: user
    targets:
      - name: Acme
        slug: acme
    builds:
      - name: episode
        kind: podcast
        target: acme
        objective: Our first episode
        status: completed
    images:
      - name: logo
    keys:
      - name: ci
        scopes: [svc:admin]
`;
const SCENARIO = {
  scenario: 'two-wrongs',
  accounts: [{ name: 'user', targets: [{ name: 'Acme', slug: 'acme' }], builds: [{ name: 'episode', kind: 'podcast', target: 'acme', objective: 'Our first episode', status: 'completed' }], images: [{ name: 'logo' }], keys: [{ name: 'ci', scopes: ['svc:admin'] }] }],
};
const PATHS = ['accounts[0].keys[0].scopes', 'accounts[0].builds[0].kind', 'accounts[0].images[0].prompt'];

describe('a scenario wrong in several places', () => {
  it('is refused in-process with every problem, those of its shape and of its calls', () => {
    let error: unknown;
    try {
      createSimulator().loadScenario(SCENARIO);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ScenarioError);
    expect((error as ScenarioError).problems.map((p) => p.path)).toEqual(PATHS);
  });

  it('is refused by the control API with every field at fault, and nothing is made', async () => {
    const app = createApp(createSimulator());
    const before = app.simulator.internal.store.accounts.size;
    const res = await app.fetch(new Request('http://127.0.0.1/_sim/scenarios', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(SCENARIO) }));
    const text = await res.text();
    assertContract({ method: 'POST', url: '/_sim/scenarios', status: res.status, headers: Object.fromEntries(res.headers), body: text });
    expect(JSON.parse(text).details.fields.map((f: { path: string }) => f.path)).toEqual(PATHS.map((p) => `body.${p}`));
    expect(app.simulator.internal.store.accounts.size).toBe(before);
  });

  it('is refused by the CLI with each problem at its line and column, in the order of the file', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'scenario-')), 'two-wrongs.yaml');
    writeFileSync(file, TWO_KINDS_OF_WRONG);
    const cli = spawnSync(`${root}node_modules/.bin/tsx`, ['src/cli/main.ts', 'serve', '--port', '0', '--quiet', '--scenario', file], { cwd: root, encoding: 'utf8', timeout: 60_000 });
    expect(cli.status).toBe(1);
    const lines = cli.stderr.split('\n').filter((l) => l.startsWith('  '));
    expect(lines.map((l) => l.trim().split(': ').slice(0, 2).join(': '))).toEqual([
      `${file}:9:15: accounts[0].builds[0].kind`,
      `${file}:14:9: accounts[0].images[0].prompt`,
      `${file}:17:17: accounts[0].keys[0].scopes`,
    ]);
  }, 90_000);
});
