import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runProxy } from '../../contracts/proxy/command.js';
import { serve, type Served } from '../observe/support.js';

/**
 * `content-contracts proxy --record` keeps no secret of what passes: not a key a client wrote
 * with JSON escapes, not the sign-in page's CSRF token or request id, not what the sign-in
 * form sends back.
 */
const running: Served[] = [];
afterEach(async () => Promise.all(running.splice(0).map((s) => s.close())));

describe('a proxy recording', () => {
  it('cuts a key spelled with JSON escapes and the sign-in form’s secrets', async () => {
    const s = await serve({ speed: 'instant' });
    running.push(s);
    s.simulator.internal.oauth.setListeningUrl(s.base);
    const me = await s.account();
    const file = join(mkdtempSync(join(tmpdir(), 'proxy-record-')), 'session.har');
    const proxy = await runProxy({ target: s.base, record: file });
    let csrf = '';
    let requestId = '';
    const escape = (i: number) => `\\u00${me.key.charCodeAt(i).toString(16)}`;
    const spelled = `\\u0073vc_live_${me.key.slice(9, 24)}${escape(24)}${me.key.slice(25, 39)}${escape(39)}${me.key.slice(40)}`;
    try {
      const body = `{"name":"Brand","slug":"brand","description":"${spelled}","brandKit":{"voice":"v","tone":"t"}}`;
      expect(JSON.parse(body).description).toBe(me.key);
      expect((await fetch(`${proxy.url}/api/v1/targets`, { method: 'POST', headers: { authorization: `Bearer ${me.key}`, 'content-type': 'application/json' }, body })).status).toBe(201);
      const authorize = new URL(`${proxy.url}/oauth/authorize`);
      const params = { response_type: 'code', client_id: 'content-sim-demo', redirect_uri: 'http://127.0.0.1:8976/callback', state: 'st', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256' };
      for (const [k, v] of Object.entries(params)) authorize.searchParams.set(k, v);
      const page = await fetch(authorize);
      const html = await page.text();
      expect(page.status, html).toBe(200);
      csrf = /name="csrf_token" value="([^"]+)"/.exec(html)![1]!;
      requestId = /name="request_id" value="([^"]+)"/.exec(html)![1]!;
      const form = new URLSearchParams({ request_id: requestId, csrf_token: csrf, api_key: me.key, decision: 'approve' });
      const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0]!;
      expect((await fetch(`${proxy.url}/oauth/authorize`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie }, body: form })).status).toBe(302);
    } finally {
      await proxy.stop();
    }
    const recording = readFileSync(file, 'utf8');
    const entries = JSON.parse(recording).log.entries as Array<{ request: { url: string; method: string; postData?: { text: string } }; response: { content: { text?: string } } }>;
    expect(entries).toHaveLength(3);
    // Read as a HAR viewer reads it: the description the request sent is the key's hint.
    expect(JSON.parse(entries[0]!.request.postData!.text).description).toBe(`svc_live_…${me.key.slice(-4)}`);
    expect(entries[1]!.response.content.text).toContain(`name="csrf_token" value="…${csrf.slice(-4)}"`);
    expect(entries[2]!.request.postData!.text).toContain(`csrf_token=…${csrf.slice(-4)}`);
    for (const secret of [me.key, spelled, csrf, requestId]) expect(recording, secret.slice(0, 10)).not.toContain(secret);
  });
});
