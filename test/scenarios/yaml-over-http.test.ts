/**
 * POST /_sim/scenarios takes a scenario as its YAML file is written, as the CLI does; a refusal
 * gives each field at fault its line and column in that text. The control guard comes first:
 * no one it refuses gets the body parsed.
 */
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app/create-app.js';
import { createSimulator } from '../../src/simulator.js';
import { assertContract } from '../support/contract.js';

const SCENARIO = `# a user with one target and a completed build
scenario: yaml-user
accounts:
  - name: user
    balance: 40
    targets:
      - name: Acme
        slug: acme
    builds:
      - name: post
        target: acme
        kind: blog
        objective: Our launch
        status: completed
`;

async function post(app: ReturnType<typeof createApp>, path: string, type: string, body: string, remoteAddress?: string) {
  const res = await app.fetch(new Request(`http://127.0.0.1${path}`, { method: 'POST', headers: { 'content-type': type }, body }), { remoteAddress: remoteAddress ?? '127.0.0.1' });
  const text = await res.text();
  assertContract({ method: 'POST', url: path, status: res.status, headers: Object.fromEntries(res.headers), body: text });
  return { status: res.status, json: JSON.parse(text) };
}

describe('a scenario sent as YAML to the control API', () => {
  it.each(['application/yaml', 'text/yaml; charset=utf-8'])('is loaded when sent as %s', async (type) => {
    const app = createApp(createSimulator());
    const loaded = await post(app, '/_sim/scenarios', type, SCENARIO);
    expect(loaded.status).toBe(201);
    expect(loaded.json.scenario).toBe('yaml-user');
    expect(Object.keys(loaded.json.accounts.user.builds)).toEqual(['post']);
  });

  it('is refused with every field at fault, each at its line and column', async () => {
    const app = createApp(createSimulator());
    const wrong = SCENARIO.replace('kind: blog', 'kind: podcast').replace('status: completed', 'status: done');
    const refused = await post(app, '/_sim/scenarios', 'application/yaml', wrong);
    expect(refused.status).toBe(400);
    expect(refused.json.details.fields).toEqual([
      { path: 'body.accounts[0].builds[0].status', message: expect.stringContaining('must be one of'), line: 14, column: 17 },
      { path: 'body.accounts[0].builds[0].kind', message: expect.stringContaining('must be one of'), line: 12, column: 15 },
    ]);
  });

  it('that is not YAML is refused with its line', async () => {
    const app = createApp(createSimulator());
    const refused = await post(app, '/_sim/scenarios', 'text/yaml', 'scenario: x\naccounts:\n  - name: [unclosed\n');
    expect(refused.status).toBe(400);
    expect(refused.json.details.fields).toEqual([{ path: 'body', message: expect.stringMatching(/^is not valid YAML: /), line: expect.any(Number), column: expect.any(Number) }]);
  });

  it('is read only past the control guard, and only where the contract says YAML', async () => {
    const app = createApp(createSimulator());
    // Not even parsed: a client the guard refuses learns nothing of its body.
    const remote = await post(app, '/_sim/scenarios', 'application/yaml', 'scenario: [', '10.0.0.7');
    expect(remote.status).toBe(403);
    const faults = await post(app, '/_sim/faults', 'application/yaml', 'operationId: getBuild\nresponse: { status: 500 }\n');
    expect(faults.status).toBe(415);
    // A type a web form can send cross-origin stays refused.
    expect((await post(app, '/_sim/scenarios', 'text/plain', SCENARIO)).status).toBe(415);
  });
});
