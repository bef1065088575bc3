import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import { createNodeHandler } from '../../src/adapters/node-handler.js';
import { createSimulator, type Simulator, type SimulatorOptions } from '../../src/simulator.js';
import { assertContract } from '../support/contract.js';

export interface Served {
  simulator: Simulator;
  base: string;
  /** A call over HTTP, its response checked against the contract documents. */
  call(method: string, path: string, options?: { key?: string | null; body?: unknown; headers?: Record<string, string> }): Promise<{ status: number; headers: Headers; json: any; ms: number }>;
  /** A fresh account of its own, as a parallel CI job makes one. */
  account(balance?: number): Promise<{ id: string; key: string }>;
  close(): Promise<void>;
}

/** The simulator as the CLI serves it (plain node:http), on a free loopback port. */
export async function serve(options: SimulatorOptions = {}): Promise<Served> {
  const simulator = createSimulator({ onFault: () => {}, ...options });
  const server: Server = createServer(createNodeHandler(simulator));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const served: Served = {
    simulator,
    base,
    async call(method, path, o = {}) {
      const key = o.key === undefined ? simulator.keys.readWrite : o.key;
      const started = performance.now();
      const res = await fetch(`${base}${path}`, {
        method,
        headers: { ...(key ? { Authorization: `Bearer ${key}` } : {}), ...(o.body !== undefined ? { 'Content-Type': 'application/json' } : {}), ...o.headers },
        body: o.body !== undefined ? JSON.stringify(o.body) : undefined,
      });
      const text = await res.text();
      const ms = performance.now() - started;
      assertContract({ method, url: path, status: res.status, headers: Object.fromEntries(res.headers), body: text });
      return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : undefined, ms };
    },
    async account(balance = 50) {
      const created = await served.call('POST', '/_sim/accounts', { key: null, body: { balance } });
      return { id: created.json.accountId as string, key: created.json.keys.readWrite as string };
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
  return served;
}

/**
 * One simulator for the whole test file: served before its first test and closed after its
 * last (the object is filled in by then, so tests read it as they would `serve`'s answer).
 */
export function serveForThisFile(options: SimulatorOptions = {}): Served {
  const served = {} as Served;
  beforeAll(async () => {
    Object.assign(served, await serve(options));
  });
  afterAll(async () => {
    await served.close?.();
  });
  return served;
}
