import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { parse } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Har } from '../../contracts/shared/har.js';
import { formatDrift } from '../../contracts/drift/report.js';
import { runProxy } from '../../contracts/proxy/command.js';
import { checkScene } from '../../contracts/scene/check.js';
import { writeScene } from '../../contracts/scene/command.js';
import { makeScene } from '../../contracts/scene/scene.js';
import type { Scene } from '../../contracts/scene/types.js';
import { createSimulator } from '../../src/simulator.js';
import { startCli } from '../support/cli-server.js';
import { serveOnLoopback, simulatorUnderTest } from '../violations/violated-simulator.js';
import { driveSceneFlow, type SceneFlow } from './flow.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const validateScenario = addFormats(new Ajv2020({ allErrors: true, strict: false })).compile(JSON.parse(readFileSync(new URL('../../scenario.schema.json', import.meta.url), 'utf8')) as object);

let dir: string;
let har: Har;
let flow: SceneFlow;
let scene: Scene;
let files: { scene: string; mapping: string };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'scene-'));
  const recording = join(dir, 'session.har');
  const simulator = await serveOnLoopback(simulatorUnderTest(undefined, { speed: 'realistic' }));
  const proxy = await runProxy({ target: simulator.baseUrl, record: recording });
  try {
    flow = await driveSceneFlow(proxy.url, simulator.baseUrl);
  } finally {
    await proxy.stop();
    await simulator.close();
  }
  har = JSON.parse(readFileSync(recording, 'utf8')) as Har;
  scene = makeScene(har, { recording });
  files = writeScene(scene, join(dir, 'session.yaml'));
}, 60_000);

const accountOf = (name: string) => scene.scenario.accounts.find((a) => a.name === name)!;

describe('content-contracts scene: a recording made a scenario', () => {
  it('states each account the recording shows, at the last state it shows, valid against scenario.schema.json', () => {
    const yaml = readFileSync(files.scene, 'utf8');
    const parsed = parse(yaml) as unknown;
    expect(parsed).toEqual(scene.scenario);
    expect(validateScenario(parsed), JSON.stringify(validateScenario.errors)).toBe(true);
    expect(scene.scenario.accounts.map((a) => a.name)).toEqual(['account-1', 'account-2']);
    const one = accountOf('account-1');
    expect(one.targets!.map((t) => [t.slug, t.name, (t.brandKit as { voice: string }).voice])).toEqual([['acme', 'Acme Robotics', 'plain'], ['beta', 'Beta Labs', 'expert']]);
    expect(one.targets![0]!.library).toEqual([{ name: 'R2 arm', type: 'product_blurb', content: 'A six-axis arm.' }]);
    expect(one.builds!.map((b) => [b.kind, b.status, b.failedAt ?? null])).toEqual([['blog', 'completed', null], ['press_release', 'failed', 'critiquing'], ['how_to', 'researching', null]]);
    expect(one.builds![0]!.libraryItems).toEqual(['R2 arm']);
    expect(one.builds![0]!.shares).toHaveLength(1);
    expect(one.builds![0]!.audio).toEqual([{ name: 'blog-1-aria', voice: 'aria' }]);
    expect(one.builds![2]!.researchMode).toBe('deep');
    expect(one.images!.map((i) => i.prompt)).toEqual(['A robot arm in a workshop']);
    const keys = Object.fromEntries(one.keys.map((k) => [k.name, k]));
    expect(keys['ci reader']).toEqual({ name: 'ci reader', scopes: ['svc:read'], rateLimited: true });
    expect(keys['Read only']).toMatchObject({ scopes: ['svc:read'] });
    expect(keys['Revoked']).toMatchObject({ revoked: true });
    // The balance last read: 40 less the blog (1), the running deep how-to (2) and the image (1); the failed press release refunded.
    expect(one.balance).toBe(36);
    const dates = har.log.entries.filter((e) => e.request.headers.some((h) => h.value === `Bearer svc_live_…${flow.readWrite.slice(-4)}`)).map((e) => Date.parse(e.response.headers.find((h) => h.name === 'date')!.value));
    expect(one.clock!.at).toBe(new Date(Math.max(...dates)).toISOString());
    const two = accountOf('account-2');
    expect([two.balance, two.targets!.map((t) => t.slug), two.images!.map((i) => i.style)]).toEqual([11, ['gamma'], ['flat']]);
    expect(yaml).toMatch(/# cannot state: lifetimePurchased \d+ and lifetimeUsed \d+/);
    expect(yaml).toMatch(/# left out: deliverable blog-1 page 0 was downloaded \(md\)/);
  });

  it('carries no recorded secret into the scene or its mapping, and names every object there', () => {
    const outputs = readFileSync(files.scene, 'utf8') + readFileSync(files.mapping, 'utf8');
    expect(flow.secrets.length).toBeGreaterThanOrEqual(10);
    for (const secret of flow.secrets) {
      expect(outputs).not.toContain(secret);
      expect(outputs).not.toContain(secret.slice(-8));
    }
    expect(outputs).not.toMatch(/svc_live_|…/);
    const kinds = new Set(scene.mapping.objects.map((o) => o.kind));
    expect([...kinds].sort()).toEqual(['audio', 'build', 'deliverable', 'image', 'key', 'library', 'share', 'target']);
    for (const o of scene.mapping.objects) expect(JSON.stringify(har)).toContain(o.recorded);
  });

  it('round trip: loaded into a fresh simulator of another seed, the recording\'s reads answer as recorded (0 drift), the rest listed', async () => {
    const target = simulatorUnderTest(undefined, { speed: 'realistic', seed: 'scene-target' });
    const server = await serveOnLoopback(target);
    const proxy = await runProxy({ target: server.baseUrl, level: 'strict' }); // every answer of the check held to the contracts
    try {
      const check = await checkScene({ har, scene, baseUrl: proxy.url });
      expect(check.drifts.map(formatDrift)).toEqual([]);
      expect(check.replayed).toBeGreaterThanOrEqual(18);
      expect(check.mapping.objects.every((o) => o.loaded && o.loaded !== o.recorded), JSON.stringify(check.mapping.objects.filter((o) => !o.loaded))).toBe(true);
      expect(check.excluded.map((x) => [x.method, x.url.replace(/[0-9a-f-]{36}/, '{id}'), x.why.replace(/[0-9a-f-]{36}/g, '{id}')])).toEqual([
        ['GET', '/api/v1/images', expect.stringMatching(/^made before key ci reader spent its minute of calls/)],
        ['GET', '/api/v1/targets/{id}', expect.stringMatching(/^it names {id}, which the scene does not hold \(left out: target {id}: deleted at call #\d+\)/)],
      ]);
      expect(check.writes.map((x) => x.method)).toEqual(['DELETE']);
    } finally {
      const report = await proxy.stop();
      await server.close();
      expect(report.violations.map((v) => `${v.rule}: ${v.method} ${v.url} ${v.detail}`)).toEqual([]);
    }
  });

  it('loads as the docs say: the YAML file through the CLI (--scenario), and in-process as msw and the fixtures load it', async () => {
    const simulator = createSimulator({ speed: 'realistic', seed: 'scene-in-process', scenarios: [parse(readFileSync(files.scene, 'utf8'))] });
    const loaded = simulator.scenarios[0]!;
    expect(Object.keys(loaded.accounts)).toEqual(['account-1', 'account-2']);
    expect(Object.values(loaded.accounts['account-1']!.builds).map((b) => b.status)).toEqual(['completed', 'failed', 'researching']);
    const cli = await startCli(['--speed', 'realistic', '--scenario', files.scene]);
    try {
      const listed = (await (await fetch(`${cli.baseUrl}/_sim/scenarios`)).json()) as { data: Array<{ scenario: string; accounts: Array<{ name: string }> }> };
      expect(listed.data.map((s) => [s.scenario, s.accounts.map((a) => a.name)])).toEqual([['scene session', ['account-1', 'account-2']]]);
    } finally {
      cli.stop();
    }
  }, 40_000);
});
