/**
 * The simulator as the CLI serves it (plain node:http; BENCH_ADAPTER=express for the express
 * adapter), with its MCP endpoint and one completed build to fetch. Rate limits
 * are raised out of reach so the bench measures the request path, not 429s; the counting
 * still happens on every request.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createExpressApp } from '../../src/adapters/express.js';
import { createNodeHandler } from '../../src/adapters/node-handler.js';
import { guardConnections } from '../../src/adapters/node-connection-guard.js';
import { parseConnectionOptions } from '../../src/cli/connection-options.js';
import { UNLIMITED } from '../../src/cli/options.js';
import { createMcpEndpoint } from '../../src/mcp/mcp-endpoint.js';
import { createSimulator } from '../../src/simulator.js';

const simulator = createSimulator({ seed: 'bench', speed: 'instant', rateLimits: UNLIMITED });
const key = simulator.keys.readWrite;
const call = (method: string, url: string, body?: unknown) =>
  simulator.handle({
    method,
    url,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body ? new TextEncoder().encode(JSON.stringify(body)) : undefined,
  });
const target = JSON.parse(call('POST', '/api/v1/targets', { name: 'Bench', slug: 'bench' }).body as string);
const build = JSON.parse(call('POST', '/api/v1/builds', { targetId: target.id, kind: 'blog', objective: 'Benchmarks' }).body as string);
const path = `/api/v1/builds/${build.buildId}`;
const sample = call('GET', path);

// BENCH_MCP_FAST=0: every /mcp request through the SDK (the fast path off), to compare both in one run.
const mcp = createMcpEndpoint(simulator, { fastPath: process.env.BENCH_MCP_FAST !== '0' });
// The CLI's own bounds on connections and time-outs, with their defaults.
const bounds = parseConnectionOptions({}, (message) => new Error(message));
const server = createServer(
  { headersTimeout: bounds.headersTimeoutMs, requestTimeout: bounds.requestTimeoutMs, connectionsCheckingInterval: 1000 },
  process.env.BENCH_ADAPTER === 'express' ? createExpressApp(simulator, { mcp }) : createNodeHandler(simulator, { mcp }),
);
guardConnections(server, { maxConnections: bounds.maxConnections, maxPerAddress: bounds.maxConnectionsPerAddress });
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ port, path, key, body: sample.body })}\n`);
});
// A clean exit on SIGINT, so that --cpu-prof can write its profile.
process.on('SIGINT', () => process.exit(0));
