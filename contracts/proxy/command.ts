import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import type { ContractLevel } from '../shared/contract-validator.js';
import { CONTRACT_FILES, readContractDocument } from '../shared/openapi-model.js';
import { HarRecorder } from './har-recorder.js';
import { Inspector } from './inspector.js';
import { formatProxyReport, writeProxyReports, type ProxyReport } from './report.js';
import { startProxy } from './server.js';
import { watchStopRequests } from '../shared/stop-signals.js';
import { explainParseArgs, usageLine } from '../shared/usage-problem.js';

export const PROXY_USAGE = `Usage: content-contracts proxy --target <url> [--port <n>] [options]

A validation proxy: point a client (an SDK's tests, a front end) at it instead of the server.
It passes every request and response through unchanged, streaming bodies, and holds each to
openapi.yaml and to this API's behaviour. On SIGINT, SIGTERM or SIGHUP (or, started through npx
or an npm script, when that npm process is gone) it writes the recording, prints its report,
writes it as JSON and JUnit, and exits 1 if it saw a violation.

  --target <url>         the server: the real service or a simulator (required)
  --port <n>             the port to listen on (default 0: any free port, printed at start)
  --host <address>       the address to listen on (default 127.0.0.1)
  --level <level>        documented (what the spec states; default) or strict (all of openapi.yaml)
  --report-dir <dir>     where contracts-proxy.json and contracts-proxy-junit.xml go (default reports)
  --capture-limit <n>    bytes of each body kept to validate (default 8388608); larger ones pass unvalidated
  --record <file>        also write what passes as HAR 1.2 to <file> when it stops, secrets redacted
                         (keys to their svc_live_…abcd hint, tokens, codes, verifiers, share tokens);
                         replay it with content-contracts drift --har <file>`;

export interface RunningProxy {
  url: string;
  /** Stops listening, writes the recording (with `record`), and answers the report of what passed. */
  stop: () => Promise<ProxyReport>;
}

export interface ProxyOptions {
  target: string;
  port?: number;
  host?: string;
  level?: ContractLevel;
  captureLimit?: number;
  /** A file to write the traffic to as HAR 1.2 when the proxy stops. */
  record?: string;
}

/** Starts a validation proxy in front of `target` (the programmatic form of the command). */
export async function runProxy(options: ProxyOptions): Promise<RunningProxy> {
  const level = options.level ?? 'documented';
  const inspector = new Inspector(level);
  const recorder = options.record ? new HarRecorder(options.record, options.target, String(readContractDocument(CONTRACT_FILES.service).info?.version ?? '')) : undefined;
  const startedAt = new Date().toISOString();
  const pending = new Set<Promise<void>>();
  const proxy = await startProxy({
    target: options.target,
    port: options.port,
    host: options.host,
    captureLimit: options.captureLimit,
    onRequest: (headers) => inspector.started(headers.authorization),
    // Validation runs after the response has gone out, off the exchange's own path.
    onExchange: (exchange) => {
      recorder?.add(exchange); // in the order exchanges end, which is the order a client saw its answers
      const job = new Promise<void>((done) => setImmediate(() => (inspector.inspect(exchange), done())));
      pending.add(job);
      void job.then(() => pending.delete(job));
    },
    onUpstreamError: (headers) => inspector.abandoned(headers.authorization),
  });
  return {
    url: proxy.url,
    stop: async () => {
      await proxy.close();
      await Promise.all(pending);
      recorder?.write();
      return { target: options.target, level, startedAt, stoppedAt: new Date().toISOString(), ...inspector.summary() };
    },
  };
}

const PROXY_OPTIONS = {
  target: { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
  level: { type: 'string' },
  'report-dir': { type: 'string' },
  'capture-limit': { type: 'string' },
  record: { type: 'string' },
  help: { type: 'boolean' },
} as const;
const PROXY_FLAGS = Object.keys(PROXY_OPTIONS);

/** `content-contracts proxy …`: runs until asked to stop (a signal, its npm launcher gone), then reports. */
export async function runProxyCommand(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: PROXY_OPTIONS,
    }));
  } catch (e) {
    process.stderr.write(usageLine('proxy', explainParseArgs(e, PROXY_FLAGS)));
    return 2;
  }
  if (values.help) {
    process.stdout.write(`${PROXY_USAGE}\n`);
    return 0;
  }
  const level = values.level ?? 'documented';
  const port = Number(values.port ?? 0);
  const captureLimit = values['capture-limit'] === undefined ? undefined : Number(values['capture-limit']);
  const problem = !values.target
    ? '--target is required'
    : !/^https?:\/\//.test(values.target)
      ? `--target must be an http(s) URL, not ${values.target}`
      : level !== 'documented' && level !== 'strict'
        ? `the level is documented or strict, not ${level}`
        : !Number.isInteger(port) || port < 0 || port > 65535
          ? `--port must be a port number, not ${values.port}`
          : captureLimit !== undefined && !(Number.isInteger(captureLimit) && captureLimit >= 0)
            ? `--capture-limit must be a number of bytes, not ${values['capture-limit']}`
            : undefined;
  if (problem) {
    process.stderr.write(usageLine('proxy', problem));
    return 2;
  }
  let proxy: RunningProxy;
  try {
    proxy = await runProxy({ target: values.target as string, port, host: values.host, level: level as ContractLevel, captureLimit, record: values.record === undefined ? undefined : resolve(values.record) });
  } catch (e) {
    process.stderr.write(`contracts proxy: cannot start: ${(e as Error).message}\n`);
    return 2;
  }
  // Listening before the line that says so: whoever reads it may send the signal at once.
  const stop = watchStopRequests();
  process.stdout.write(`contracts proxy: listening on ${proxy.url}, passing to ${values.target} (${level} level); stop with Ctrl-C or SIGTERM\n`);
  const signal = await stop.stopped;
  const report = await proxy.stop();
  const files = writeProxyReports(report, resolve(values['report-dir'] ?? 'reports'));
  process.stdout.write(`\n(${signal})\n${formatProxyReport(report)}\nJSON report: ${files.json}\nJUnit report: ${files.junit}\n${values.record ? `Recording (HAR 1.2): ${resolve(values.record)}\n` : ''}`);
  return report.violations.length > 0 ? 1 : 0;
}
