#!/usr/bin/env node
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:http';
import { createExpressApp } from '../adapters/express.js';
import { createMcpEndpoint } from '../mcp/mcp-endpoint.js';
import { createSimulator } from '../simulator.js';
import { VERSION } from '../version.js';
import { parseServeOptions, USAGE } from './options.js';
import { banner } from './banner.js';
import { stopOnSignals } from './shutdown.js';
import { formatRequestLine } from './request-log.js';
import { readStateFile, restoreFromStateFile, StateWriter } from './state-file.js';

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
  let simulator;
  let stateWriter: StateWriter | undefined;
  try {
    const saved = options.stateFile ? readStateFile(options.stateFile.path) : undefined;
    // Without --seed, the file's seed: a state file alone is enough to pick up where it was.
    if (saved && !options.seedGiven) options.simulator.seed = saved.seed;
    simulator = createSimulator(options.simulator);
    if (options.stateFile) {
      if (saved) restoreFromStateFile(simulator, options.stateFile.path, saved.snapshot);
      stateWriter = new StateWriter(simulator, options.stateFile.path, options.stateFile.intervalMs, (line) => process.stderr.write(line));
      stateWriter.start();
    }
  } catch (error) {
    process.stderr.write(`content-sim: ${(error as Error).message}\n`);
    process.exitCode = 1;
    return;
  }
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
    simulator.sim.oauth.setListeningUrl(`http://${host}:${port}`);
    process.stdout.write(banner(`http://${host}:${port}`, simulator, options.simulator.control !== false));
    if (!isLoopback(options.host)) process.stderr.write(exposureWarning(options.host, options.simulator.controlToken !== undefined, options.simulator.randomDemoKeys === true));
  });
  stopOnSignals(server, {
    drainMs: options.drainMs,
    beforeClose: () => mcp.close(),
    log: options.quiet ? undefined : (line) => process.stderr.write(line),
    onExit: () => stateWriter?.stop(),
  });
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host.startsWith('127.');
}

/** Listening beyond loopback: say what is exposed and what protects what. */
function exposureWarning(host: string, tokenSet: boolean, randomDemoKeys: boolean): string {
  return [
    `content-sim: WARNING: listening on ${host}, beyond loopback: other machines can reach the API and /mcp.`,
    randomDemoKeys
      ? '  The demo keys above are random for this run (--seeded-keys derives them from the seed): keep them to yourself.'
      : '  The demo keys are derived from the seed (--seeded-keys or --deterministic-secrets): anyone who knows it can use them.',
    '  Failed authentications and share views are limited per client address (30 and 60 a minute).',
    tokenSet ? '  /_sim needs the control token (X-Control-Token).' : '  /_sim answers loopback clients only (--control-token lets others in with a token).',
    '',
  ].join('\n');
}

main();
