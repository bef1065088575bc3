import { expect } from 'vitest';
import type { SimulatorOptions } from '../../src/simulator.js';
import { oauthRig, type OAuthRig } from '../oauth/support.js';
import { assertContract } from './contract.js';

/** A simulator (REST, control and /mcp) on a loopback port, its clock frozen at T0; by default three GETs a minute per key. */
export const rig = (options: SimulatorOptions = { rateLimits: { perKey: { default: 3 } } }): Promise<OAuthRig> => oauthRig(options);

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
