/**
 * The app on its Fetch side, with no file system and no server: pages from an in-memory asset
 * source, a body cut at the path's limit, and the client's address deciding who may use `/_sim`.
 */
import { describe, expect, it } from 'vitest';
import { memoryAssets } from '../../src/app/assets.js';
import { createApp } from '../../src/app/create-app.js';
import { createSimulator } from '../../src/simulator.js';
import { assertContract } from '../support/contract.js';
import { T0 } from '../support/harness.js';

const BASE = 'http://127.0.0.1:4010';
const simulator = createSimulator({ frozenAt: T0, publicUrl: BASE, onFault: () => {} });
const app = createApp(simulator, { assets: memoryAssets({ 'dashboard/index.html': '<!doctype html><title>dashboard</title>', 'openapi.yaml': 'openapi: 3.1.0\n' }) });

async function checked(method: string, path: string, response: Response) {
  const text = await response.text();
  assertContract({ method, url: path, status: response.status, headers: Object.fromEntries(response.headers), body: text });
  return { status: response.status, json: JSON.parse(text) as { code: string } };
}

describe('the app through fetch', () => {
  it('serves its pages from the asset source it was given, and only those', async () => {
    const page = await app.fetch(new Request(`${BASE}/`));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await page.text()).toBe('<!doctype html><title>dashboard</title>');
    const yaml = await app.fetch(new Request(`${BASE}/openapi.yaml`));
    expect([yaml.status, yaml.headers.get('content-type'), await yaml.text()]).toEqual([200, 'application/yaml; charset=utf-8', 'openapi: 3.1.0\n']);
    // The docs bundle was not given: no page, the API's own 404.
    const missing = await app.fetch(new Request(`${BASE}/docs/scalar.js`));
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('answers 413 to a body over the limit without reading all of it', async () => {
    let pulled = 0;
    const chunk = new Uint8Array(64 * 1024).fill(0x20);
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += chunk.byteLength;
        controller.enqueue(chunk); // never ends: only a reader that stops can answer
      },
    });
    const request = new Request(`${BASE}/api/v1/targets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${simulator.keys.readWrite}`, 'content-type': 'application/json' },
      body: endless,
      duplex: 'half',
    } as RequestInit);
    const { status, json } = await checked('POST', '/api/v1/targets', await app.fetch(request));
    expect([status, json.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    expect(pulled).toBeLessThan(4 * 1024 * 1024);
  });

  it('lets a loopback or in-process client use /_sim, and refuses one from elsewhere', async () => {
    const reset = () => new Request(`${BASE}/_sim/reset`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect((await checked('POST', '/_sim/reset', await app.fetch(reset()))).status).toBe(200);
    expect((await checked('POST', '/_sim/reset', await app.fetch(reset(), { remoteAddress: '127.0.0.1' }))).status).toBe(200);
    const refused = await checked('POST', '/_sim/reset', await app.fetch(reset(), { remoteAddress: '203.0.113.9' }));
    expect([refused.status, refused.json.code]).toEqual([403, 'FORBIDDEN']);
  });
});
