import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { applyAccepted, readAcceptFile, type AcceptedDifference } from './accept.js';
import type { CredentialRole } from './credentials.js';
import { readHar, type Har } from '../shared/har.js';
import { replayRecording } from './replay.js';
import { watchStopRequests } from '../shared/stop-signals.js';
import { explainParseArgs, usageLine } from '../shared/usage-problem.js';
import { driftReport, formatDriftReport, writeDriftReports, type DriftReport } from './report.js';

export const DRIFT_USAGE = `Usage: content-contracts drift --har <file> --base-url <url> [options]

Replays a recording (HAR 1.2: from content-contracts proxy --record, from the simulator's
GET /_sim/journal?format=har, or from a browser) against a server, call by call in the recorded
order, and reports every answer that drifted from the recorded one: status, error code, the set
and types of fields, enumerated values, documented headers, the order of a build's states.
Generated text, ids, timestamps, counts and amounts are never compared. Ids and keys are mapped
to the target's as a client learns them, from earlier answers. Exits 1 on drift not accepted.
On SIGINT, SIGTERM or SIGHUP (or its npm launcher gone) it stops before the next call, reports
what it replayed, and exits 1: a replay that did not finish is not a pass.

  --har <file>            the recording (required)
  --base-url <url>        the server to replay against (CONTRACT_BASE_URL; required). The
                          simulator by default: the replay gets a fresh account with a clock of its
                          own, which it moves where the recording's time moved
  --key-read-write <key>  another implementation's credentials, by role (CONTRACT_KEY_READ_WRITE;
  --key-read-only <key>   CONTRACT_KEY_READ_ONLY, CONTRACT_KEY_WRITE_ONLY, CONTRACT_KEY_REVOKED):
  --key-write-only <key>  each recorded key is replayed with the target's key of the role its
  --key-revoked <key>     answers show (a 403 SCOPE_REQUIRED on writes: read-only, …)
  --balance <n>           the fresh simulator account's tokens (default: the recording's account's,
                          read from its first balance answer)
  --accept <file>         a reviewed YAML or JSON file of known differences (accept: [{ rule,
                          operationId, field, recorded, replayed, reason }]): reported, not failing
  --poll-interval <s>     between extra polls of a build that has not ended where the recorded one
                          had (default 30; on the simulator, the clock moves instead of waiting)
  --report-dir <dir>      where contracts-drift.json and contracts-drift-junit.xml go (default reports)`;

const KEY_FLAGS: Record<string, CredentialRole> = { 'key-read-write': 'readWrite', 'key-read-only': 'readOnly', 'key-write-only': 'writeOnly', 'key-revoked': 'revoked' };
const KEY_ENV: Record<CredentialRole, string> = { readWrite: 'CONTRACT_KEY_READ_WRITE', readOnly: 'CONTRACT_KEY_READ_ONLY', writeOnly: 'CONTRACT_KEY_WRITE_ONLY', revoked: 'CONTRACT_KEY_REVOKED' };

export interface DriftCheckOptions {
  har: string;
  baseUrl: string;
  keys?: Partial<Record<CredentialRole, string>>;
  balance?: number;
  accept?: string;
  pollIntervalMs?: number;
  /** Stops the replay early; what was replayed is reported. */
  signal?: AbortSignal;
}

/** Replays and reports (the programmatic form of the command). */
export async function checkDrift(options: DriftCheckOptions): Promise<DriftReport> {
  const startedAt = new Date().toISOString();
  const har: Har = readHar(options.har);
  const accepted: AcceptedDifference[] = options.accept ? readAcceptFile(options.accept) : [];
  const result = await replayRecording({ har, baseUrl: options.baseUrl, keys: options.keys, balance: options.balance, pollIntervalMs: options.pollIntervalMs, signal: options.signal });
  const stale = applyAccepted(result.drifts, accepted);
  return driftReport(result, options.har, startedAt, stale);
}

const DRIFT_OPTIONS = {
  har: { type: 'string' },
  'base-url': { type: 'string' },
  balance: { type: 'string' },
  accept: { type: 'string' },
  'poll-interval': { type: 'string' },
  'report-dir': { type: 'string' },
  ...Object.fromEntries(Object.keys(KEY_FLAGS).map((k) => [k, { type: 'string' as const }])),
  help: { type: 'boolean' },
} as const;
const DRIFT_FLAGS = Object.keys(DRIFT_OPTIONS);

export async function runDriftCommand(argv: string[]): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: DRIFT_OPTIONS,
    }));
  } catch (e) {
    process.stderr.write(usageLine('drift', explainParseArgs(e, DRIFT_FLAGS)));
    return 2;
  }
  if (values.help) {
    process.stdout.write(`${DRIFT_USAGE}\n`);
    return 0;
  }
  const baseUrl = (values['base-url'] as string | undefined) ?? process.env.CONTRACT_BASE_URL;
  const keys: Partial<Record<CredentialRole, string>> = {};
  for (const [flag, role] of Object.entries(KEY_FLAGS)) {
    const key = (values[flag] as string | undefined) ?? process.env[KEY_ENV[role]];
    if (key) keys[role] = key;
  }
  const balance = values.balance === undefined ? undefined : Number(values.balance);
  const poll = values['poll-interval'] === undefined ? undefined : Number(values['poll-interval']);
  const problem = !values.har
    ? '--har is required'
    : !baseUrl
      ? '--base-url (or CONTRACT_BASE_URL) is required'
      : !/^https?:\/\//.test(baseUrl)
        ? `--base-url must be an http(s) URL, not ${baseUrl}`
        : balance !== undefined && !(Number.isInteger(balance) && balance >= 0)
          ? `--balance must be a whole number of tokens, not ${values.balance}`
          : poll !== undefined && !(Number.isFinite(poll) && poll > 0)
            ? `--poll-interval must be a number of seconds, not ${values['poll-interval']}`
            : Object.keys(keys).length && !keys.readWrite
              ? 'with credentials, --key-read-write (CONTRACT_KEY_READ_WRITE) is required'
              : undefined;
  if (problem) {
    process.stderr.write(usageLine('drift', problem));
    return 2;
  }
  let report: DriftReport;
  const stop = watchStopRequests();
  const abort = new AbortController();
  void stop.stopped.then((reason) => abort.abort(reason));
  try {
    report = await checkDrift({ har: resolve(values.har as string), baseUrl: baseUrl as string, keys: Object.keys(keys).length ? keys : undefined, balance, accept: values.accept ? resolve(values.accept as string) : undefined, pollIntervalMs: poll === undefined ? undefined : poll * 1000, signal: abort.signal });
  } catch (e) {
    process.stderr.write(`contracts drift: ${(e as Error).message}\n`);
    return 2;
  } finally {
    stop.dispose();
  }
  const files = writeDriftReports(report, resolve((values['report-dir'] as string | undefined) ?? 'reports'));
  process.stdout.write(`${formatDriftReport(report)}\nJSON report: ${files.json}\nJUnit report: ${files.junit}\n`);
  return report.drifts.length > 0 || report.interrupted ? 1 : 0;
}
