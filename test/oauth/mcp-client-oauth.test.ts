import { Client, StreamableHTTPClientTransport, UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { oauthRig, signIn, type OAuthRig } from './support.js';

/**
 * The official MCP client signs in by itself from nothing but the /mcp URL: it reads the
 * 401 challenge, discovers the authorization server, registers, and sends its user to the
 * sign-in page, where an API key is typed and Approve pressed (here over plain HTTP; the
 * browser test does the same in Chromium).
 */
class TestProvider implements OAuthClientProvider {
  clientInfo: any;
  stored: any;
  verifier = '';
  callback: URLSearchParams | undefined;

  constructor(private readonly apiKey: string) {}

  get redirectUrl() {
    return 'http://127.0.0.1:9/callback';
  }
  get clientMetadata() {
    return { client_name: 'MCP SDK test client', redirect_uris: [this.redirectUrl], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' };
  }
  clientInformation() {
    return this.clientInfo;
  }
  saveClientInformation(info: any) {
    this.clientInfo = info;
  }
  tokens() {
    return this.stored;
  }
  saveTokens(tokens: any) {
    this.stored = tokens;
  }
  async redirectToAuthorization(url: URL) {
    const answer = await signIn(url.href, this.apiKey);
    expect(answer.status, answer.html).toBe(302);
    this.callback = new URL(answer.location!).searchParams;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

let rig: OAuthRig;
beforeEach(async () => (rig = await oauthRig()));
afterEach(async () => rig.close());

async function connect(provider: TestProvider): Promise<Client> {
  const client = new Client({ name: 'oauth-test', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${rig.base}/mcp`), { authProvider: provider }));
  return client;
}

describe('the official MCP client signs in with OAuth', () => {
  it('from the /mcp URL alone, then runs the typical flow', async () => {
    const provider = new TestProvider(rig.simulator.keys.readWrite);
    const first = new StreamableHTTPClientTransport(new URL(`${rig.base}/mcp`), { authProvider: provider });
    await expect(new Client({ name: 'oauth-test', version: '1' }).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.clientInfo.client_id).toMatch(/^client_/);
    expect(provider.callback?.get('iss')).toBe(rig.base);
    await first.finishAuth(provider.callback!);
    expect(provider.stored).toMatchObject({ token_type: expect.stringMatching(/^bearer$/i), scope: 'svc:read svc:write' });

    const client = await connect(provider);
    const call = async (name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args })) as any;
    expect((await call('getTokenBalance')).structuredContent.balance).toBe(100);
    const target = await call('createTarget', { name: 'OAuth', slug: 'oauth', description: 'd', brandKit: { voice: 'v', tone: 't' } });
    const build = await call('createBuild', { targetId: target.structuredContent.id, buildType: 'single', kind: 'blog', objective: 'Signed in', researchPolicy: 'required', idempotencyKey: 'oauth-1' });
    setTimeout(() => rig.simulator.clock.advance(3_600_000 - 1), 50);
    const done = await call('waitForBuild', { buildId: build.structuredContent.buildId });
    expect(done.structuredContent.build.status).toBe('completed');
    const md = await call('downloadDeliverable', { deliverableId: done.structuredContent.deliverables[0].id, format: 'md' });
    expect(md.content[0].resource.mimeType).toBe('text/markdown');
    await client.close();
  });

  it('signs in with only the scopes the key holds, and refreshes an expired access token by itself', async () => {
    const provider = new TestProvider(rig.simulator.keys.readOnly);
    const first = new StreamableHTTPClientTransport(new URL(`${rig.base}/mcp`), { authProvider: provider });
    await expect(new Client({ name: 'oauth-test', version: '1' }).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
    await first.finishAuth(provider.callback!);
    expect(provider.stored.scope).toBe('svc:read');
    const oldRefresh = provider.stored.refresh_token;
    rig.simulator.clock.advance(3_600_000);
    const client = await connect(provider);
    expect(((await client.callTool({ name: 'getTokenBalance', arguments: {} })) as any).structuredContent.balance).toBe(100);
    expect(provider.stored.refresh_token).not.toBe(oldRefresh);
    await client.close();
  });
});
