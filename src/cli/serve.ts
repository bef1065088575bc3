import type { AddressInfo } from 'node:net';
import { createServer } from 'node:http';
import { createNodeHandler } from '../adapters/node-handler.js';
import { createApp } from '../app/create-app.js';
import { createSimulator } from '../simulator.js';
import { VERSION } from '../version.js';
import { parseServeOptions, USAGE } from './options.js';
import { banner, exposureWarning } from './banner.js';
import { isLoopback } from '../engine/control-guard.js';
import { stopOnSignals } from './shutdown.js';
import { cliAssets } from './cli-assets.js';
import { npmLauncher, watchLauncher } from './launcher-watch.js';
import { contentCacheBytesFor, sampleMemory, startMemoryGauge } from './memory-gauge.js';
import { HeapGrowth } from './heap-growth.js';
import { requestLogger } from './request-log.js';
import { readStateFile } from './state-file.js';
import { DurableState } from '../persist/durable-state.js';
import { recoverState } from '../persist/recover.js';

/** `content-sim serve`: parses the options, starts the simulator and its HTTP server, stops on signals. */
export async function main(): Promise<void> {
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
  let durableState: DurableState | undefined;
  try {
    const saved = options.stateFile ? readStateFile(options.stateFile.path) : undefined;
    // Without --seed, the file's seed: a state file alone is enough to pick up where it was.
    if (saved && !options.seedGiven) options.simulator.seed = saved.seed;
    simulator = createSimulator({ contentCacheBytes: contentCacheBytesFor(), ...options.simulator });
    if (options.stateFile) {
      const recovered = saved ? recoverState(simulator, options.stateFile.path, saved.snapshot) : undefined;
      durableState = new DurableState(simulator, { ...options.stateFile, onError: (line) => process.stderr.write(line) }, recovered?.nextSegment);
      if (recovered && recovered.outcome.records > 0) durableState.compactSoon();
    }
  } catch (error) {
    process.stderr.write(`content-sim: ${(error as Error).message}\n`);
    process.exitCode = 1;
    return;
  }
  startMemoryGauge(simulator.internal.capacity, options.maxMemoryMiB, sampleMemory, new HeapGrowth());
  const app = createApp(simulator, { assets: cliAssets(), mcp: { allowedHostnames: isLoopback(options.host) ? [] : [options.host] } });
  const handler = createNodeHandler(app, {
    onRequest: options.quiet ? undefined : await requestLogger(options.logFormat),
  });
  const server = createServer(handler);
  server.on('error', (error: NodeJS.ErrnoException) => {
    process.stderr.write(`content-sim: cannot listen on ${options.host}:${options.port}: ${error.code ?? error.message}\n`);
    process.exit(1);
  });
  server.listen(options.port, options.host, () => {
    const { port } = server.address() as AddressInfo;
    const host = options.host.includes(':') ? `[${options.host}]` : options.host;
    simulator.internal.oauth.setListeningUrl(`http://${host}:${port}`);
    // With JSON logs, stdout holds only JSON lines: the banner (for people) goes to stderr.
    const out = options.logFormat === 'json' ? process.stderr : process.stdout;
    out.write(banner(`http://${host}:${port}`, simulator, options.simulator.control !== false));
    if (!isLoopback(options.host)) process.stderr.write(exposureWarning(options.host, options.simulator.controlToken !== undefined, options.simulator.randomDemoKeys === true));
  });
  const stopFromWithin = stopOnSignals(server, {
    drainMs: options.drainMs,
    beforeClose: () => app.close(),
    log: options.quiet ? undefined : (line) => process.stderr.write(line),
    onStop: () => {
      simulator.stopAccepting();
      simulator.endJournalFeeds();
    },
    onExit: () => durableState?.stop(),
  });
  // npx does not pass its signals on: when the npm process that started us is gone, stop as on SIGTERM.
  const launcher = npmLauncher(process.env);
  if (launcher !== undefined) {
    watchLauncher(launcher, () => stopFromWithin(`npm (pid ${launcher}), which started this server, is gone: stopping`));
  }
}

