import { ContractValidator, type ContractLevel } from '../shared/contract-validator.js';
import { ExerciseLog, matchOperation } from '../shared/exercise-log.js';
import { exerciseReport, type ExerciseReport } from '../shared/exercise-report.js';
import { CONTRACT_FILES, readOperations, type OperationInfo } from '../shared/openapi-model.js';
import { ResponseRules, type RuleTime } from '../shared/response-rules.js';
import { BehaviourChecks } from './behaviour.js';
import { RequestChecker } from './request-check.js';
import type { PassedExchange } from './server.js';

export const REQUEST_RULE = 'Contract: a request that breaks openapi.yaml (parameters, body) is refused, never answered with a success';
export const CREDENTIAL_RULE = 'Authentication 1, 4, API key: a protected operation without "Authorization: Bearer svc_live_<40 hexadecimal characters>" never gets a success';

/** The only credential form a protected operation may accept (the scheme is case-insensitive, RFC 9110). */
const CREDENTIAL = { strict: /^[Bb][Ee][Aa][Rr][Ee][Rr] +svc_live_[0-9a-f]{40}$/, documented: /^[Bb][Ee][Aa][Rr][Ee][Rr] +svc_live_[0-9a-fA-F]{40}$/ };

export interface ProxyViolation {
  rule: string;
  method: string;
  url: string;
  status: number;
  operationId?: string;
  detail: string;
}

export interface InspectionSummary {
  exchanges: number;
  violations: ProxyViolation[];
  /** Requests the client sent that the contract refuses (answered with an error, as they should be). */
  refusedInvalidRequests: number;
  /** Bodies larger than the capture limit: passed on, not validated. */
  unvalidatedBodies: number;
  upstreamErrors: number;
  coverage: ExerciseReport;
  /** Median time from request to the end of the response, through the proxy. */
  medianDurationMs: number | null;
}

/**
 * Holds each passing exchange to the contract and to this API's behaviour: the request
 * against its operation, the response against openapi.yaml and the rules every response
 * obeys (error shape, rate-limit headers and their arithmetic), and the behaviour across
 * exchanges (replays, 429s, the build state machine). It also keeps the coverage log.
 */
export class Inspector {
  readonly violations: ProxyViolation[] = [];
  private readonly operations: OperationInfo[];
  private readonly requests: RequestChecker;
  private readonly rules: ResponseRules;
  private readonly behaviour = new BehaviourChecks();
  private readonly log = new ExerciseLog();
  private readonly inFlight = new Map<string, number>();
  private readonly durations: number[] = [];
  private serverClock = { date: Date.now(), local: Date.now() };
  private exchanges = 0;
  private refused = 0;
  private unvalidated = 0;
  upstreamErrors = 0;

  constructor(
    readonly level: ContractLevel,
    private readonly files = CONTRACT_FILES,
  ) {
    this.operations = readOperations(this.files.service);
    this.requests = new RequestChecker(files.service, level);
    const validator = ContractValidator.shared(files, { level, allowUndocumentedHeaders: true });
    // The server's time is the Date of its latest response (the simulator's may be a moved clock).
    // Each response's Date is read before it is inspected, so an account's own clock and the simulator's both hold.
    const time: RuleTime = { nowNear: () => this.serverClock.date + (Date.now() - this.serverClock.local), toleranceMs: 2000 };
    this.rules = new ResponseRules(validator, time, level);
  }

  /** Called when a request starts: rate-limit arithmetic only holds for one key's requests that do not overlap. */
  started(credential: string | undefined): void {
    if (credential) this.inFlight.set(credential, (this.inFlight.get(credential) ?? 0) + 1);
  }

  /** A request whose target could not be reached: it ends without an exchange to inspect. */
  abandoned(credential: string | undefined): void {
    this.upstreamErrors++;
    if (credential) this.inFlight.set(credential, Math.max(0, (this.inFlight.get(credential) ?? 1) - 1));
  }

  inspect(x: PassedExchange): void {
    this.exchanges++;
    this.durations.push(x.durationMs);
    const credential = x.requestHeaders.authorization;
    const overlapped = credential !== undefined && (this.inFlight.get(credential) ?? 1) > 1;
    if (credential) this.inFlight.set(credential, Math.max(0, (this.inFlight.get(credential) ?? 1) - 1));
    const date = Date.parse(x.responseHeaders.date ?? '');
    if (Number.isFinite(date)) this.serverClock = { date, local: x.endedAt };

    if (x.url.split('?')[0] === '/mcp') {
      // MCP traffic is outside openapi.yaml; its tool calls still move the key's REST windows.
      if (credential) this.rules.forget(credential.replace(/^Bearer\s+/i, ''));
      return;
    }
    const op = matchOperation(this.operations, x.method, x.url);
    const text = new TextDecoder().decode(x.responseBody);
    const requestText = x.requestBodyComplete ? new TextDecoder().decode(x.requestBody) : undefined;
    this.log.record({ operation: op, url: x.url, requestHeaders: x.requestHeaders, requestBody: requestText, status: x.status, responseBody: text, responseContentType: x.responseHeaders['content-type'] });
    const fail = (rule: string, detail: string) => this.violations.push({ rule, method: x.method, url: redact(x.url), status: x.status, operationId: op?.id, detail: redact(detail) });

    if (op && op.scope !== null && x.status < 300 && !CREDENTIAL[this.level].test(credential ?? '')) {
      fail(CREDENTIAL_RULE, `answered ${x.status} to ${describeCredential(credential)}`);
    }
    if (op && x.requestBodyComplete) {
      const problems = this.requests.check(op.id, x.url, x.requestHeaders, x.requestBody);
      if (problems.length && x.status < 300) fail(REQUEST_RULE, `answered ${x.status} to a request where ${problems.join('; ')}`);
      else if (problems.length) this.refused++;
    }
    if (!x.responseBodyComplete) {
      this.unvalidated++;
      return;
    }
    const key = overlapped ? undefined : credential?.replace(/^Bearer\s+/i, '');
    for (const failure of this.rules.inspect({ method: x.method, url: x.url, status: x.status, headers: x.responseHeaders, text, operation: op, key })) {
      const [rule, ...detail] = failure.split('\n');
      fail(rule as string, detail.join(' ').trim());
    }
    let json: unknown;
    if ((x.responseHeaders['content-type'] ?? '').includes('json')) {
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined; // the contract validation has said so
      }
    }
    const serverNow = Number.isFinite(date) ? date : this.serverClock.date;
    for (const finding of this.behaviour.inspect({ operationId: op?.id, credential, requestHeaders: x.requestHeaders, status: x.status, headers: x.responseHeaders, json, serverNow })) {
      fail(finding.rule, finding.detail);
    }
  }

  summary(): InspectionSummary {
    const sorted = [...this.durations].sort((a, b) => a - b);
    return {
      exchanges: this.exchanges,
      violations: this.violations,
      refusedInvalidRequests: this.refused,
      unvalidatedBodies: this.unvalidated,
      upstreamErrors: this.upstreamErrors,
      coverage: exerciseReport(this.operations, this.log, this.files.service),
      medianDurationMs: sorted.length ? (sorted[Math.floor(sorted.length / 2)] as number) : null,
    };
  }
}

/** What a credential looks like, never what it is: reports must not carry secrets. */
function describeCredential(credential: string | undefined): string {
  if (credential === undefined) return 'no Authorization header';
  const [scheme = '', value = ''] = credential.split(/ +/, 2);
  const shape = value.startsWith('svc_live_') ? `svc_live_ and ${value.length - 9} characters` : `${value.length} characters`;
  if (value) return `Authorization scheme "${scheme.slice(0, 16)}" with a value of ${shape}`;
  return `Authorization with no scheme (${scheme.length} characters${scheme.startsWith('svc_live_') ? ', starting svc_live_' : ''})`;
}

/** Text with what may be a secret blanked: query values named like one, API key values, share-link tokens. */
export function redact(text: string): string {
  return text.replace(/(\/shared\/)[^/?#\s"]+/g, '$1…').replace(/([?&](?:api_key|apikey|key|token|access_token|code)=)[^&#\s]*/gi, '$1…').replace(/svc_live_[0-9a-fA-F]{8,}/g, 'svc_live_…');
}
