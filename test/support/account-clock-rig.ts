import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import { createExpressApp } from '../../src/adapters/express.js';
import { createMcpEndpoint } from '../../src/mcp/mcp-endpoint.js';
import { createSimulator, type Simulator, type SimulatorOptions } from '../../src/simulator.js';
import { assertContract } from './contract.js';
import { T0 } from './harness.js';

/** A simulator (REST, control and /mcp) on a loopback port, its clock frozen at T0; by default three GETs a minute per key. */
export async function rig(options: SimulatorOptions = { rateLimits: { perKey: { default: 3 } } }): Promise<{ simulator: Simulator; base: string; close(): Promise<void> }> {
  const simulator = createSimulator({ frozenAt: T0, onFault: () => {}, ...options });
  const server: Server = createServer(createExpressApp(simulator, { mcp: createMcpEndpoint(simulator, { pollMs: 20 }) }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  simulator.internal.oauth.setListeningUrl(base);
  return {
    simulator,
    base,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: any;
}

/** Any call, its response validated against openapi.yaml or simulator-control.yaml. */
export async function call(base: string, method: string, path: string, options: { key?: string; body?: unknown } = {}): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${base}${path}`, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
  const text = await res.text();
  const responseHeaders = Object.fromEntries(res.headers);
  assertContract({ method, url: path, status: res.status, headers: responseHeaders, body: text });
  return { status: res.status, headers: responseHeaders, body: text ? JSON.parse(text) : undefined };
}

export async function account(base: string, body: Record<string, unknown>) {
  const made = await call(base, 'POST', '/_sim/accounts', { body });
  expect(made.status).toBe(201);
  return made.body as { accountId: string; keys: { readWrite: string; readOnly: string }; clock?: { own: boolean; nowMs: number; frozen: boolean } };
}

export async function startBuild(base: string, key: string, objective = 'Explain how to dial in espresso at home'): Promise<string> {
  const target = await call(base, 'POST', '/api/v1/targets', { key, body: { name: 'Brand', slug: 'brand', description: 'Coffee gear for home baristas', brandKit: { voice: 'expert', tone: 'warm' } } });
  expect(target.status).toBe(201);
  const build = await call(base, 'POST', '/api/v1/builds', {
    key,
    body: { targetId: target.body.id, buildType: 'single', kind: 'blog', objective, researchPolicy: 'required' },
  });
  expect(build.status).toBe(202);
  return build.body.buildId as string;
}

export async function mint(base: string, apiKey: string): Promise<string> {
  const minted = await call(base, 'POST', '/_sim/oauth/tokens', { body: { apiKey } });
  expect(minted.status).toBe(201);
  return minted.body.access_token as string;
}
