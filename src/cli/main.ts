#!/usr/bin/env node
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:http';
import { createExpressApp } from '../adapters/express.js';
import { createMcpEndpoint } from '../mcp/mcp-endpoint.js';
import { createSimulator } from '../simulator.js';
import { VERSION } from '../version.js';
import { parseServeOptions, USAGE } from './options.js';
import { banner } from './banner.js';
import { formatRequestLine } from './request-log.js';

function main(): void {
  let parsed;
  try {
    parsed = parseServeOptions(process.argv.slice(2), process.env);
  } catch (e) {
    process.stderr.write(`content-sim: ${(e as Error).message}\n\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  if (parsed === 'help') return void process.stdout.write(USAGE);
  if (parsed === 'version') return void process.stdout.write(`${VERSION}\n`);

  const options = parsed;
  const simulator = createSimulator(options.simulator);
  const mcp = createMcpEndpoint(simulator, { allowedHostnames: isLoopback(options.host) ? [] : [options.host] });
  const app = createExpressApp(simulator, {
    mcp,
    onRequest: options.quiet
      ? undefined
      : (entry) => process.stdout.write(formatRequestLine(entry)),
  });
  const server = createServer(app);
  server.on('error', (error: NodeJS.ErrnoException) => {
    process.stderr.write(`content-sim: cannot listen on ${options.host}:${options.port}: ${error.code ?? error.message}\n`);
    process.exit(1);
  });
  server.listen(options.port, options.host, () => {
    const { port } = server.address() as AddressInfo;
    const host = options.host.includes(':') ? `[${options.host}]` : options.host;
    process.stdout.write(banner(`http://${host}:${port}`, simulator, options.simulator.control !== false));
  });
  const stop = () => {
    void mcp.close();
    server.close(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host.startsWith('127.');
}

main();
