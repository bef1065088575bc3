/** Scenes from the other recordings a user has: the simulator's journal exported as HAR, and a browser's HAR export. */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Har, HarEntry } from '../../contracts/shared/har.js';
import { formatDrift } from '../../contracts/drift/report.js';
import { checkScene, loadOver } from '../../contracts/scene/check.js';
import { formatSceneCheck, writeScene } from '../../contracts/scene/command.js';
import { makeScene } from '../../contracts/scene/scene.js';
import { browserMissing, launchChromium } from '../support/browser.js';
import { serveOnLoopback, simulatorUnderTest } from '../violations/violated-simulator.js';
import { driveSceneFlow, type SceneFlow } from './flow.js';

const REALISTIC = { speed: 'realistic' } as const;
let dir: string;
let recorded: Awaited<ReturnType<typeof serveOnLoopback>>;
let fresh: Awaited<ReturnType<typeof serveOnLoopback>>;
let flow: SceneFlow;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'scene-sources-'));
  recorded = await serveOnLoopback(simulatorUnderTest(undefined, REALISTIC));
  fresh = await serveOnLoopback(simulatorUnderTest(undefined, { ...REALISTIC, seed: 'scene-sources' }));
  flow = await driveSceneFlow(recorded.baseUrl, recorded.baseUrl);
}, 60_000);
afterAll(async () => {
  await recorded.close();
  await fresh.close();
});

function outputsHoldNoSecret(scene: ReturnType<typeof makeScene>, file: string, secrets: string[]): void {
  const files = writeScene(scene, join(dir, file));
  const text = readFileSync(files.scene, 'utf8') + readFileSync(files.mapping, 'utf8');
  expect(secrets.length).toBeGreaterThan(0);
  for (const secret of secrets) {
    expect(text).not.toContain(secret);
    expect(text).not.toContain(secret.slice(-8));
  }
}

describe('content-contracts scene from other recordings', () => {
  it("makes a scene of the journal's HAR export that loads, and whose reads answer as recorded", async () => {
    const response = await fetch(`${recorded.baseUrl}/_sim/journal?accountId=${flow.accounts[0]}&format=har&limit=1000`);
    expect(response.status).toBe(200);
    const har = (await response.json()) as Har;
    expect(har.log.creator.name).toBe('content-sim journal');
    const scene = makeScene(har, { recording: 'journal.har' });
    outputsHoldNoSecret(scene, 'journal.yaml', flow.secrets);
    expect(scene.scenario.accounts).toHaveLength(1); // the export is one account's
    const account = scene.scenario.accounts[0]!;
    expect(account.builds!.map((b) => b.status)).toEqual(['completed', 'failed', 'researching']);
    expect(account.keys.find((k) => k.name === 'ci reader')).toMatchObject({ rateLimited: true });
    const check = await checkScene({ har, scene, baseUrl: fresh.baseUrl });
    expect(check.drifts.map(formatDrift)).toEqual([]);
    expect(check.replayed).toBeGreaterThanOrEqual(15);
  });

  it('makes a scene of a browser-style export (whole keys and share tokens in it, devtools fields) that holds none of them, and loads', async () => {
    // What a browser's devtools export carries that a proxy's does not: secrets whole, pseudo-headers, its own fields.
    const { har, secrets } = await browserStyleRecording(recorded.baseUrl);
    const text = JSON.stringify(har);
    for (const secret of secrets) expect(text).toContain(secret); // the export does hold them
    const scene = makeScene(har, { recording: 'devtools.har', redactText: true });
    outputsHoldNoSecret(scene, 'devtools.yaml', secrets);
    const target = scene.scenario.accounts[0]!.targets![0]!;
    expect([target.slug.length, target.slug === 'devtools-brand', /^[a-z0-9]+(-[a-z0-9]+)*$/.test(target.slug)]).toEqual(['devtools-brand'.length, false, true]);
    expect(scene.scenario.accounts[0]!.keys.map((k) => k.name.length)).toContain('browser made'.length); // user text too: redacted
    expect(scene.scenario.accounts[0]!.keys.map((k) => k.name)).not.toContain('browser made');
    const loaded = await loadOver(fresh.baseUrl, scene);
    expect(Object.keys(loaded.accounts)).toEqual(['account-1']);
    // The round trip maps the whole keys of the export to the scene's: its reads answer as recorded, and its report holds no secret.
    const check = await checkScene({ har, scene, baseUrl: fresh.baseUrl });
    expect(check.drifts.map(formatDrift)).toEqual([]);
    expect(check.replayed).toBe(4);
    const report = formatSceneCheck(check);
    for (const secret of secrets) expect(report).not.toContain(secret.slice(-8));
  });

  it.skipIf(browserMissing)("makes a scene of Chromium's own HAR export (Playwright's recordHar) that loads", async () => {
    const file = join(dir, 'chromium.har');
    const account = await (await fetch(`${recorded.baseUrl}/_sim/accounts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"Browser user"}' })).json() as { keys: { readWrite: string } };
    const browser = await launchChromium();
    try {
      const context = await browser.newContext({ recordHar: { path: file, content: 'embed' } });
      const page = await context.newPage();
      await page.goto(`${recorded.baseUrl}/_sim`);
      await page.evaluate(async (key) => {
        const call = (method: string, path: string, body?: unknown) => fetch(path, { method, headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined }).then((r) => r.json());
        const target = await call('POST', '/api/v1/targets', { name: 'From Chromium', slug: 'chromium', brandKit: { voice: 'plain', tone: 'warm' } });
        await call('POST', '/api/v1/builds', { targetId: target.id, kind: 'blog', objective: 'Seen in a browser' });
        await call('GET', '/api/v1/builds');
        await call('GET', '/api/v1/tokens/balance');
      }, account.keys.readWrite);
      await context.close(); // writes the HAR
    } finally {
      await browser.close();
    }
    const har = JSON.parse(readFileSync(file, 'utf8')) as Har;
    const scene = makeScene(har, { recording: file });
    outputsHoldNoSecret(scene, 'chromium.yaml', [account.keys.readWrite]);
    expect(scene.scenario.accounts[0]!.targets!.map((t) => t.slug)).toEqual(['chromium']);
    expect((await loadOver(fresh.baseUrl, scene)).accounts['account-1']!.builds).toBeDefined();
  });
});

/** A session recorded as a browser's devtools export writes it: nothing redacted, HTTP/2 pseudo-headers, `_resourceType`. */
async function browserStyleRecording(baseUrl: string): Promise<{ har: Har; secrets: string[] }> {
  const account = await (await fetch(`${baseUrl}/_sim/accounts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"Devtools user","clock":{"own":true}}' })).json() as { keys: Record<string, string> };
  const entries: HarEntry[] = [];
  const call = async (method: string, path: string, key: string, body?: unknown) => {
    const headers: Record<string, string> = { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) };
    const started = new Date();
    const res = await fetch(`${baseUrl}${path}`, { method, headers, body: body ? JSON.stringify(body) : undefined });
    const text = await res.text();
    const responseHeaders = [...res.headers].map(([name, value]) => ({ name, value }));
    entries.push({
      startedDateTime: started.toISOString(), time: 1, cache: {}, timings: { send: 0, wait: 1, receive: 0 }, _resourceType: 'fetch', _initiator: { type: 'script' },
      request: { method, url: `${baseUrl}${path}`, httpVersion: 'h2', cookies: [], headers: [{ name: ':authority', value: new URL(baseUrl).host }, { name: ':method', value: method }, ...Object.entries(headers).map(([name, value]) => ({ name, value }))], queryString: [], headersSize: -1, bodySize: body ? JSON.stringify(body).length : 0, ...(body ? { postData: { mimeType: 'application/json', text: JSON.stringify(body) } } : {}) },
      response: { status: res.status, statusText: '', httpVersion: 'h2', cookies: [], headers: responseHeaders, content: { size: text.length, mimeType: res.headers.get('content-type') ?? '', text }, redirectURL: '', headersSize: -1, bodySize: text.length },
    } as HarEntry);
    return text.startsWith('{') ? JSON.parse(text) : undefined;
  };
  const key = account.keys.readWrite as string;
  const target = await call('POST', '/api/v1/targets', key, { name: 'Devtools Brand', slug: 'devtools-brand', description: 'Seen in devtools', brandKit: { voice: 'plain', tone: 'warm' } });
  const build = await call('POST', '/api/v1/builds', key, { targetId: target.id, kind: 'news', objective: 'Devtools opens an office' });
  await call('GET', `/api/v1/builds/${build.buildId}`, key);
  const made = await call('POST', '/api/v1/keys', key, { name: 'browser made', scopes: ['svc:read'] });
  await call('GET', '/api/v1/targets', made.value);
  await call('GET', '/api/v1/keys', key);
  await call('GET', '/api/v1/tokens/balance', key);
  return { har: { log: { version: '1.2', creator: { name: 'WebInspector', version: '537.36' }, pages: [], entries } }, secrets: [key, made.value] };
}
