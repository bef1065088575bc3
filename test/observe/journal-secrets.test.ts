import { createHash, randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { serve, type Served } from './support.js';

/**
 * The journal keeps what a developer needs to debug a client, error codes first, and no secret:
 * neither the ones the simulator issues nor the ones an OAuth client sends (code, verifier,
 * CSRF token, the key typed on the sign-in page).
 */
const running: Served[] = [];
afterEach(async () => Promise.all(running.splice(0).map((s) => s.close())));
const control = { key: null } as const;
type Entry = Record<string, any>;

async function journal(s: Served, query = 'limit=1000'): Promise<Entry[]> {
  return (await s.call('GET', `/_sim/journal?${query}`, control)).json.data;
}

describe('the journal, precise about secrets', () => {
  it('keeps every error code in the response bodies', async () => {
    const s = await serve({ speed: 'instant', rateLimits: { perKey: { default: 2 } } });
    running.push(s);
    const me = await s.account();
    expect((await s.call('GET', '/api/v1/builds/00000000-0000-4000-8000-000000000000', { key: me.key })).status).toBe(404);
    expect((await s.call('POST', '/api/v1/targets', { key: me.key, body: { name: '' } })).status).toBe(400);
    expect((await s.call('GET', '/api/v1/targets', { key: me.key })).status).toBe(429);
    const bodies = (await journal(s)).filter((e) => e.status >= 400).map((e) => JSON.parse(e.responseBody).code);
    expect(bodies).toEqual(['RATE_LIMITED', 'VALIDATION_ERROR', 'NOT_FOUND']);
  });

  it("files a 429 under the caller's account and operation, so filtering by account shows it", async () => {
    const s = await serve({ rateLimits: { perKey: { default: 1 } } });
    running.push(s);
    const me = await s.account();
    await s.call('GET', '/api/v1/targets', { key: me.key });
    expect((await s.call('GET', '/api/v1/targets', { key: me.key })).status).toBe(429);
    const mine = await journal(s, `accountId=${me.id}&status=429`);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ accountId: me.id, operationId: 'listTargets', errorCode: 'RATE_LIMITED', keyHint: `svc_live_…${me.key.slice(-4)}` });
  });

  it('keeps no authorization code, PKCE verifier, CSRF token or typed key from a sign-in', async () => {
    const s = await serve({ speed: 'instant' });
    running.push(s);
    s.simulator.internal.oauth.setListeningUrl(s.base);
    const me = await s.account();
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const redirectUri = 'http://127.0.0.1:8976/callback';
    const authorize = new URL(`${s.base}/oauth/authorize`);
    const params = { response_type: 'code', client_id: 'content-sim-demo', redirect_uri: redirectUri, state: 'st', code_challenge: challenge, code_challenge_method: 'S256' };
    for (const [k, v] of Object.entries(params)) authorize.searchParams.set(k, v);
    const page = await fetch(authorize, { redirect: 'manual' });
    const html = await page.text();
    expect(page.status, html).toBe(200);
    const form = new URLSearchParams([...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
    const csrf = form.get('csrf_token')!;
    expect(csrf.length).toBeGreaterThan(20);
    form.set('api_key', me.key);
    form.set('decision', 'approve');
    const signedIn = await fetch(`${s.base}/oauth/authorize`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: (page.headers.get('set-cookie') ?? '').split(';')[0]! },
      body: form,
    });
    expect(signedIn.status).toBe(302);
    const code = new URL(signedIn.headers.get('location')!).searchParams.get('code')!;
    expect(code).toMatch(/^sim_ac_/);
    await fetch(`${s.base}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: 'content-sim-demo', code_verifier: verifier }),
    });

    const entries = await journal(s);
    const kept = JSON.stringify(entries);
    for (const secret of [code, verifier, csrf, me.key]) expect(kept, secret.slice(0, 10)).not.toContain(secret);
    const tokenCall = entries.find((e) => e.url === '/oauth/token')!;
    expect(tokenCall.requestBody).toContain(`code=sim_ac_…${code.slice(-4)}`);
    expect(tokenCall.requestBody).toContain(`code_verifier=…${verifier.slice(-4)}`);
    expect(entries.find((e) => e.method === 'POST' && e.url === '/oauth/authorize')!.requestBody).toContain(`csrf_token=…${csrf.slice(-4)}`);
  });

  it('keeps neither a key spelled with JSON escapes nor the sign-in page\'s CSRF token, in the journal or its HAR', async () => {
    const s = await serve({ speed: 'instant' });
    running.push(s);
    s.simulator.internal.oauth.setListeningUrl(s.base);
    const me = await s.account();
    // The key in a request body, its first letter and two of its digits written as JSON escapes
    // (no run of 32 hexadecimal digits is left, which would be cut as a digest).
    const escape = (i: number) => `\\u00${me.key.charCodeAt(i).toString(16)}`;
    const spelled = `\\u0073vc_live_${me.key.slice(9, 24)}${escape(24)}${me.key.slice(25, 39)}${escape(39)}${me.key.slice(40)}`;
    const body = `{"name":"Brand","slug":"brand","description":"${spelled}","brandKit":{"voice":"v","tone":"t"}}`;
    expect(JSON.parse(body).description).toBe(me.key);
    const created = await fetch(`${s.base}/api/v1/targets`, { method: 'POST', headers: { authorization: `Bearer ${me.key}`, 'content-type': 'application/json' }, body });
    expect(created.status).toBe(201);
    const authorize = new URL(`${s.base}/oauth/authorize`);
    const params = { response_type: 'code', client_id: 'content-sim-demo', redirect_uri: 'http://127.0.0.1:8976/callback', state: 'st', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256' };
    for (const [k, v] of Object.entries(params)) authorize.searchParams.set(k, v);
    const html = await (await fetch(authorize)).text();
    const csrf = /name="csrf_token" value="([^"]+)"/.exec(html)![1]!;
    const requestId = /name="request_id" value="([^"]+)"/.exec(html)![1]!;

    const entries = await journal(s);
    const har = (await (await fetch(`${s.base}/_sim/journal?format=har&limit=1000`)).json()).log.entries as Entry[];
    // Read as any JSON reader reads them: the description the journal and its HAR kept is the hint.
    const posted = entries.find((e) => e.url === '/api/v1/targets')!;
    const harPosted = har.find((e) => e.request.url.endsWith('/api/v1/targets'))!;
    for (const text of [posted.requestBody, harPosted.request.postData.text]) expect(JSON.parse(text).description).toBe(`svc_live_…${me.key.slice(-4)}`);
    for (const text of [JSON.stringify(entries), JSON.stringify(har)]) {
      for (const secret of [me.key, spelled, csrf, requestId]) expect(text, secret.slice(0, 10)).not.toContain(secret);
    }
  });
});
