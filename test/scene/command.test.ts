import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { runSceneCommand } from '../../contracts/scene/command.js';
import type { SceneMapping } from '../../contracts/scene/types.js';
import { createSimulator } from '../../src/simulator.js';
import { serveOnLoopback, simulatorUnderTest } from '../violations/violated-simulator.js';
import { InProcessRecording } from './in-process-har.js';

let dir: string;
let har: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'scene-cli-'));
  har = join(dir, 'session.har');
  const r = new InProcessRecording();
  const target = r.call('POST', '/api/v1/targets', undefined, { name: 'Acme', slug: 'acme', brandKit: { voice: 'plain', tone: 'warm' } });
  const build = r.call('POST', '/api/v1/builds', undefined, { targetId: target.id, kind: 'blog', objective: 'A post' });
  r.advance(3_600_000);
  const view = r.call('GET', `/api/v1/builds/${build.buildId}`);
  r.call('GET', `/api/v1/deliverables/${view.deliverables[0].id}`);
  r.call('POST', '/api/v1/images', undefined, { prompt: 'A logo' });
  r.call('GET', '/api/v1/tokens/balance');
  writeFileSync(har, JSON.stringify(r.har()));
});
afterEach(() => vi.restoreAllMocks());

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((out += String(chunk)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((err += String(chunk)), true));
  const code = await runSceneCommand(args);
  vi.restoreAllMocks();
  return { code, out, err };
}

describe('content-contracts scene, the command', () => {
  it('refuses what it cannot do with exit 2 and the usage', async () => {
    for (const [args, message] of [[[], '--har is required'], [['--har', har, '--check-against', 'localhost:4010'], '--check-against must be an http(s) URL'], [['--har', join(dir, 'none.har')], 'is not a readable JSON file'], [['--map-loaded', 'x.json', '--out', join(dir, 'nowhere.yaml')], 'no mapping at']] as Array<[string[], string]>) {
      const result = await run(args);
      expect([result.code, result.err]).toEqual([2, expect.stringContaining(message)]);
    }
  });

  it('writes the scene and its mapping beside it, then --map-loaded fills the new ids from a load answer', async () => {
    const out = join(dir, 'scene.yaml');
    const made = await run(['--har', har, '--out', out, '--name', 'cli scene']);
    expect(made.code).toBe(0);
    expect(made.out).toMatch(/^contracts scene: 1 account\(s\), 4 named object\(s\)/);
    const scenario = parse(readFileSync(out, 'utf8')) as { scenario: string };
    expect(scenario.scenario).toBe('cli scene');
    const before = JSON.parse(readFileSync(join(dir, 'scene.map.json'), 'utf8')) as SceneMapping;
    expect(before.objects.map((o) => [o.kind, o.name, o.loaded])).toEqual([['target', 'acme', null], ['build', 'blog-1', null], ['deliverable', 'blog-1', null], ['image', expect.stringMatching(/^image-/), null]]);
    const answer = createSimulator({ seed: 'elsewhere', speed: 'realistic' }).loadScenario(scenario);
    writeFileSync(join(dir, 'answer.json'), JSON.stringify(answer));
    const filled = await run(['--out', out, '--map-loaded', join(dir, 'answer.json')]);
    expect([filled.code, filled.out]).toEqual([0, expect.stringContaining('4 of 4 recorded ids mapped')]);
    const after = JSON.parse(readFileSync(join(dir, 'scene.map.json'), 'utf8')) as SceneMapping;
    expect(after.objects.map((o) => o.loaded)).toEqual([answer.accounts['account-1']!.targets.acme, answer.accounts['account-1']!.builds['blog-1']!.buildId, answer.accounts['account-1']!.builds['blog-1']!.deliverableIds[0], Object.values(answer.accounts['account-1']!.images)[0]]);
    expect(JSON.stringify(after)).not.toContain(Object.values(answer.accounts['account-1']!.keys)[0]!); // the load's secrets stay out of it
  });

  it('--check-against: loads the scene into a simulator, replays the reads, exits 0 with no difference and 1 with one', async () => {
    const server = await serveOnLoopback(simulatorUnderTest(undefined, { speed: 'realistic', seed: 'scene-cli' }));
    try {
      const out = join(dir, 'checked.json');
      const ok = await run(['--har', har, '--out', out, '--check-against', server.baseUrl]);
      expect([ok.code, ok.out]).toEqual([0, expect.stringMatching(/3 read\(s\) replayed[\s\S]*0 difference\(s\)/)]);
      expect(JSON.parse(readFileSync(out, 'utf8')).accounts[0].builds[0].status).toBe('completed');
      expect((JSON.parse(readFileSync(join(dir, 'checked.map.json'), 'utf8')) as SceneMapping).objects.every((o) => o.loaded)).toBe(true);
      // A recording that says the balance answer had a field the service does not send: one difference.
      const tampered = JSON.parse(readFileSync(har, 'utf8'));
      const last = tampered.log.entries.at(-1);
      last.response.content.text = last.response.content.text.replace('{', '{"bonus":1,');
      writeFileSync(join(dir, 'tampered.har'), JSON.stringify(tampered));
      const drift = await run(['--har', join(dir, 'tampered.har'), '--out', join(dir, 'tampered.yaml'), '--check-against', server.baseUrl]);
      expect([drift.code, drift.out]).toEqual([1, expect.stringMatching(/\[fieldMissing bonus\][\s\S]*1 difference\(s\)/)]);
    } finally {
      await server.close();
    }
  });
});
