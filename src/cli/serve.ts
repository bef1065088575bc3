import type { AddressInfo } from 'node:net';
import { createServer } from 'node:http';
import { createNodeHandler, nodeClientMetadata } from '../adapters/node-handler.js';
import { createApp } from '../app/create-app.js';
import { createSimulator } from '../simulator.js';
import { VERSION } from '../version.js';
import { USAGE, UsageError } from './options.js';
import { loadServeOptions } from './config-file.js';
import { formatEffective } from './option-sources.js';
import { listenProblem, stateFileProblem } from './startup-problems.js';
import { banner, exposureWarning } from './banner.js';
import { isLoopback } from '../engine/control-guard.js';
import { stopOnSignals } from './shutdown.js';
import { cliAssets } from './cli-assets.js';
import { npmLauncher, watchLauncher } from './launcher-watch.js';
import { contentCacheBytesFor, sampleMemory, startMemoryGauge } from './memory-gauge.js';
import { HeapGrowth } from './heap-growth.js';
import { requestLogger, withoutDashboardReads } from './request-log.js';
import type { ScenarioSource } from '../scenarios/source.js';
import type { DurableState } from '../persist/durable-state.js';
import { guardConnections } from '../adapters/node-connection-guard.js';
import { keepServingOnFaults } from './keep-serving.js';
import { clientReportSummary } from './client-report-summary.js';

/** `content-sim serve`: parses the options, starts the simulator and its HTTP server, stops on signals. */
export async function main(): Promise<void> {
  let parsed;
  try {
    parsed = await loadServeOptions(process.argv.slice(2), process.env);
  } catch (e) {
    // One line that names the problem and the fix; the whole usage only where a person asks for it (--help).
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`content-sim: ${e.message}\n`);
    process.exitCode = 2;
    return;
  }
  if (parsed === 'help') return void process.stdout.write(USAGE);
  if (parsed === 'version') return void process.stdout.write(`${VERSION}\n`);

  const options = parsed;
  if (options.printConfig) return void process.stdout.write(formatEffective(options.settings.values, options.settings.from, options.settings.file));
  let simulator;
  let durableState: DurableState | undefined;
  let sources: ScenarioSource[] = [];
  const stateProblem = options.stateFile && stateFileProblem(options.stateFile.path);
  if (stateProblem) {
    process.stderr.write(`content-sim: ${stateProblem}\n`);
    process.exitCode = 2;
    return;
  }
  // What only some starts use is loaded by those: scenario files (and YAML), the state file and its log.
  const scenarioFiles = options.scenarios.length > 0 ? await import('./scenario-files.js') : undefined;
  const persistence = options.stateFile ? await loadPersistence() : undefined;
  try {
    const saved = options.stateFile && persistence ? persistence.readStateFile(options.stateFile.path) : undefined;
    // Without --seed, the file's seed: a state file alone is enough to pick up where it was.
    if (saved && !options.seedGiven) options.simulator.seed = saved.seed;
    sources = (await scenarioFiles?.readScenarioFiles(options.scenarios)) ?? [];
    // A saved simulation already holds what its scenarios made: they are not loaded twice.
    const scenarios = saved ? [] : sources.map((s) => s.value);
    simulator = createSimulator({ contentCacheBytes: contentCacheBytesFor(), ...options.simulator, scenarios });
    if (options.stateFile && persistence) {
      const { acceptDamagedTail } = options.stateFile;
      const recovered = saved ? persistence.recoverState(simulator, options.stateFile.path, saved.snapshot, { acceptDamagedTail, notice: (line) => process.stderr.write(line) }) : undefined;
      durableState = new persistence.DurableState(simulator, { ...options.stateFile, onError: (line) => process.stderr.write(line) }, recovered?.nextSegment);
      if (recovered && recovered.outcome.records > 0) durableState.compactSoon();
    }
  } catch (error) {
    process.stderr.write(`content-sim: ${scenarioFiles?.describeScenarioError(error, sources) ?? (error as Error).message}\n`);
    process.exitCode = 1;
    return;
  }
  const log = (line: string) => process.stderr.write(line);
  // From here on the process serves: no error in a timer or a callback may end it.
  keepServingOnFaults(log);
  startMemoryGauge(simulator.internal.capacity, options.maxMemoryMiB, sampleMemory, new HeapGrowth());
  const app = createApp(simulator, { assets: cliAssets(), mcp: { allowedHostnames: isLoopback(options.host) ? [] : [options.host] }, clientMetadata: nodeClientMetadata(options.metadataDocumentsOnLoopback === true) });
  const handler = createNodeHandler(app, {
    onRequest: options.quiet ? undefined : options.logDashboard ? await requestLogger(options.logFormat) : withoutDashboardReads(await requestLogger(options.logFormat)),
  });
  const { connections } = options;
  const server = createServer({
    headersTimeout: connections.headersTimeoutMs,
    requestTimeout: connections.requestTimeoutMs,
    // The time-outs are checked this often: a slow client is cut off within a second of its time.
    connectionsCheckingInterval: 1000,
  }, handler);
  guardConnections(server, { maxConnections: connections.maxConnections, maxPerAddress: connections.maxConnectionsPerAddress }, log);
  let listening = false;
  server.on('error', (error: NodeJS.ErrnoException) => {
    // Once listening, an error is one connection's (EMFILE on accept): logged, and the server goes on.
    if (listening) return void log(`content-sim: ${error.code ?? error.message} (serving goes on)\n`);
    process.stderr.write(`content-sim: ${listenProblem(error, options.host, options.port)}\n`);
    process.exit(1);
  });
  server.listen(options.port, options.host, () => {
    listening = true;
    const { port } = server.address() as AddressInfo;
    const host = options.host.includes(':') ? `[${options.host}]` : options.host;
    simulator.internal.oauth.setListeningUrl(`http://${host}:${port}`);
    // With JSON logs, stdout holds only JSON lines: the banner (for people) goes to stderr.
    const out = options.logFormat === 'json' ? process.stderr : process.stdout;
    // One write: whoever reads the banner reads the scenarios' keys with it.
    out.write(banner(`http://${host}:${port}`, simulator, options.simulator.control !== false) + (scenarioFiles?.scenarioBanner(simulator.scenarios) ?? ''));
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
    onExit: () => {
      if (options.clientReport) process.stdout.write(clientReportSummary(simulator));
      return durableState?.stop();
    },
  });
  // npx does not pass its signals on: when the npm process that started us is gone, stop as on SIGTERM.
  const launcher = npmLauncher(process.env);
  if (launcher !== undefined) {
    watchLauncher(launcher, () => stopFromWithin(`npm (pid ${launcher}), which started this server, is gone: stopping`));
  }
}


/** The state file's reader, its recovery and its write-ahead log: loaded only by a start with --state-file. */
async function loadPersistence() {
  const [{ readStateFile }, { DurableState }, { recoverState }] = await Promise.all([import('../persist/state-file.js'), import('../persist/durable-state.js'), import('../persist/recover.js')]);
  return { readStateFile, DurableState, recoverState };
}
