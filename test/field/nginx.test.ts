import { readFileSync } from 'node:fs';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { instanceOf } from '../../src/index.js';
import { assertContract } from '../support/contract.js';
import { repeatRun } from '../support/once.js';
import { missing, tools } from '../support/requirements.js';
import { freePort, readmeRecipe, SCALING_DOC, startInstance, startNginx, type Instance, type Nginx } from './support/nginx.js';

/**
 * The scale-out recipe of docs/operations/scaling.md, as written, with real nginx in front of two real
 * `content-sim serve` processes. Only the ports change (free ones instead of 4010, 4011, 8080).
 */
const nginxBinary = tools.nginx;
const skipReason = repeatRun ? 'a repeat run on another Node' : missing('nginx');
if (repeatRun) console.warn(`nginx recipe test skipped: ${skipReason}`);

let instances: Instance[] = [];
let nginx: Nginx | undefined;
let base: string;

beforeAll(async () => {
  if (skipReason) return;
  const recipe = readmeRecipe();
  const balancerPort = await freePort();
  base = `http://127.0.0.1:${balancerPort}`;
  let config = recipe.nginx;
  for (const command of recipe.commands) {
    const readmePort = command[command.indexOf('--port') + 1]!;
    const publicUrl = command[command.indexOf('--public-url') + 1]!;
    const args = command.map((arg) => (arg === publicUrl ? base : arg));
    // Instant builds so that a share link exists at once; nothing about routing depends on it.
    const instance = await startInstance(args, ['--speed', 'instant']);
    instances.push(instance);
    config = replaceAll(config, `127.0.0.1:${readmePort}`, `127.0.0.1:${instance.port}`);
  }
  const readmeBalancer = new URL(recipe.commands[0]![recipe.commands[0]!.indexOf('--public-url') + 1]!);
  config = replaceAll(config, `listen ${readmeBalancer.host};`, `listen 127.0.0.1:${balancerPort};`);
  nginx = await startNginx(nginxBinary!, config, balancerPort);
}, 90_000);

afterAll(async () => {
  await nginx?.stop();
  instances.forEach((instance) => instance.stop());
});

/** Replaces every occurrence of a text that must be there. */
function replaceAll(text: string, from: string, to: string): string {
  // Whole addresses only: a port already put in may begin with a later one of the guide's.
  const whole = new RegExp(`${from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![0-9])`, 'g');
  if (!whole.test(text)) throw new Error(`the guide's nginx configuration has no ${from}`);
  return text.replace(whole, to);
}

/** A call through the balancer; every REST and /_sim answer is checked against the contract (nginx's own Server header aside). */
async function call(method: string, path: string, authorization: string | null, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...(authorization ? { authorization } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const { server: _addedByNginx, ...headers } = Object.fromEntries(res.headers);
  assertContract({ method, url: path, status: res.status, headers, body: text });
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

async function shareLink(key: string): Promise<string> {
  const bearer = `Bearer ${key}`;
  const target = await call('POST', '/api/v1/targets', bearer, { name: 'Fleet', slug: `fleet-${key.slice(-6)}` });
  expect(target.status).toBe(201);
  const build = await call('POST', '/api/v1/builds', bearer, { targetId: target.json.id, kind: 'blog', objective: 'Share across the fleet' });
  expect(build.status).toBe(202);
  const done = await call('GET', `/api/v1/builds/${build.json.buildId}`, bearer);
  expect(done.json.build.status).toBe('completed');
  const share = await call('POST', `/api/v1/deliverables/${done.json.deliverables[0].id}/shares`, bearer, {});
  expect(share.status).toBe(201);
  return share.json.url as string;
}

async function mcpBalance(bearer: string): Promise<unknown> {
  const client = new Client({ name: 'nginx-test', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${bearer}` } } }));
  try {
    const result = await client.callTool({ name: 'getTokenBalance', arguments: {} });
    expect(result.isError, JSON.stringify(result)).toBeFalsy();
    return result.structuredContent;
  } finally {
    await client.close();
  }
}

describe.skipIf(skipReason !== undefined)('the scale-out nginx recipe in front of two instances', () => {
  it('prints stable demo keys for each instance: the ones the guide lists', async () => {
    const guide = readFileSync(SCALING_DOC, 'utf8');
    for (const [n, instance] of instances.entries()) {
      expect(instanceOf(instance.keys.readWrite)).toBe(n);
      expect(instance.banner).toMatch(new RegExp(`instance +${n} `));
      expect(guide).toContain(`| ${n} | \`${instance.keys.readWrite}\` | \`${instance.keys.readOnly}\` |`);
    }
  });

  it('routes REST calls on the key of either instance, the scheme in any letter case', async () => {
    for (const instance of instances) {
      for (const scheme of ['Bearer', 'bearer', 'BEARER']) {
        const balance = await call('GET', '/api/v1/tokens/balance', `${scheme} ${instance.keys.readWrite}`);
        expect(balance.status, `${scheme} ${instance.keys.readWrite}`).toBe(200);
      }
    }
    // Each key is known only to its own instance: the balancer, not luck, made these 200s.
    const direct = await fetch(`http://127.0.0.1:${instances[0]!.port}/api/v1/tokens/balance`, { headers: { authorization: `Bearer ${instances[1]!.keys.readWrite}` } });
    expect(direct.status).toBe(401);
    expect(((await direct.json()) as { error: string }).error).toContain('it names instance 1 (svc_live_01…), and this is instance 0');
  });

  it('spreads keyless account creation over both instances, and routes the new keys home', async () => {
    const owners: number[] = [];
    for (let i = 0; i < 4; i++) {
      const created = await call('POST', '/_sim/accounts', null, { balance: 40 + i });
      expect(created.status).toBe(201);
      const key = created.json.keys.readWrite as string;
      owners.push(instanceOf(key)!);
      expect((await call('GET', '/api/v1/tokens/balance', `bearer ${key}`)).json.balance).toBe(40 + i);
    }
    expect(owners.sort()).toEqual([0, 0, 1, 1]);
  });

  it('opens the share links of both instances with no key', async () => {
    for (const [n, instance] of instances.entries()) {
      const url = await shareLink(instance.keys.readWrite);
      expect(instanceOf(url)).toBe(n);
      expect((await call('GET', url, null)).status).toBe(200);
    }
  });

  it('serves MCP with the keys of both instances', async () => {
    for (const instance of instances) {
      expect(await mcpBalance(instance.keys.readWrite)).toMatchObject({ balance: expect.any(Number) });
    }
  });

  it("signs in with OAuth for instance 0's accounts, and refuses an instance-1 key on the page, as the guide says", async () => {
    const insecure = { [oauth.allowInsecureRequests]: true };
    const resource = new URL(`${base}/mcp`);
    const prm = await oauth.processResourceDiscoveryResponse(resource, await oauth.resourceDiscoveryRequest(resource, insecure));
    expect(prm.authorization_servers).toEqual([base]);
    const issuer = new URL(base);
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { ...insecure, algorithm: 'oauth2' }));
    const redirectUri = 'http://127.0.0.1:9/callback';
    const client = await oauth.processDynamicClientRegistrationResponse(
      await oauth.dynamicClientRegistrationRequest(as, { redirect_uris: [redirectUri], client_name: 'Fleet assistant', token_endpoint_auth_method: 'none' }, insecure),
    );
    const signIn = async (apiKey: string) => {
      const verifier = oauth.generateRandomCodeVerifier();
      const url = new URL(as.authorization_endpoint!);
      const params = { response_type: 'code', client_id: client.client_id, redirect_uri: redirectUri, scope: 'svc:read svc:write', state: 's', resource: resource.href, code_challenge: await oauth.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' };
      for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
      const page = await fetch(url, { redirect: 'manual' });
      const html = await page.text();
      expect(page.status, html).toBe(200);
      const form = new URLSearchParams([...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
      form.set('api_key', apiKey);
      form.set('decision', 'approve');
      const answer = await fetch(`${base}/oauth/authorize`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: (page.headers.get('set-cookie') ?? '').split(';')[0]! },
        body: form,
      });
      return { status: answer.status, location: answer.headers.get('location'), html: await answer.text(), verifier };
    };

    const own = await signIn(instances[0]!.keys.readWrite);
    expect(own.status, own.html).toBe(302);
    const callback = oauth.validateAuthResponse(as, client, new URL(own.location!), 's');
    const exchange = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), callback, redirectUri, own.verifier, { ...insecure, additionalParameters: { resource: resource.href } });
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, exchange).catch((error: { cause?: unknown }) => {
      throw new Error(`token exchange refused: ${JSON.stringify(error.cause ?? error)}`);
    });
    expect(await mcpBalance(tokens.access_token)).toMatchObject({ balance: expect.any(Number) });

    const other = await signIn(instances[1]!.keys.readWrite);
    expect(other.status).toBe(401);
    expect(other.html.replace(/&#39;|&apos;/g, "'")).toContain('it names instance 1 (svc_live_01…), and this is instance 0, which knows only its own accounts');
  });
});
