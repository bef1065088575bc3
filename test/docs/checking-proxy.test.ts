import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCheckingProxy, type CheckingProxy } from './checking-proxy.js';

/** The doc test's proxy reports an answer that breaks the contract, and passes every answer on unchanged. */
let upstream: Server;
let proxy: CheckingProxy;

beforeAll(async () => {
  // A server that answers the balance without its required fields, and MCP with anything.
  upstream = createServer((req, res) => {
    if (req.url === '/api/v1/tokens/balance') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"balance":"lots"}');
    res.writeHead(200, { 'content-type': 'text/plain' }).end('not described');
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  proxy = await startCheckingProxy();
  proxy.target(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`);
});
afterAll(async () => {
  await proxy.close();
  await new Promise((resolve) => upstream.close(resolve));
});

describe('the contract-checking proxy of the doc test', () => {
  it('reports an answer that breaks openapi.yaml, and still passes it on as it came', async () => {
    const res = await fetch(`${proxy.url}/api/v1/tokens/balance`);
    expect(await res.text()).toBe('{"balance":"lots"}');
    const violations = proxy.takeViolations();
    expect(violations).toHaveLength(1);
    expect(violations[0]).toMatch(/GET \/api\/v1\/tokens\/balance → 200 breaks the contract/);
    expect(proxy.takeViolations()).toEqual([]);
  });

  it('leaves MCP and OAuth, which no OpenAPI document describes, unchecked', async () => {
    for (const path of ['/mcp', '/oauth/token', '/.well-known/oauth-authorization-server']) {
      expect(await (await fetch(`${proxy.url}${path}`)).text()).toBe('not described');
    }
    expect(proxy.takeViolations()).toEqual([]);
  });
});
