/**
 * This API's behaviour as it shows across exchanges, checked on traffic the proxy did not
 * make: idempotent replays, the arithmetic of a 429's headers, and each build's state machine
 * across polls. Each finding starts with its rule.
 */

export const BEHAVIOUR_RULES = {
  replay: 'Idempotency 2: the same Idempotency-Key within 24 hours answers the existing build (same buildId) with idempotent: true',
  retryAfter: 'Limits, openapi.yaml: a 429 carries Remaining 0 and a Retry-After consistent with X-RateLimit-Reset',
  order: 'States: a build moves forward only (pending, researching, drafting, critiquing, merging, completed; or failed), never back',
  terminal: 'States: completed and failed are final: a build never leaves them, and a completed build keeps its deliverables',
  deliverables: 'States: deliverables are on the build retrieval response once the build is completed, and not before',
} as const;

const ORDER = ['pending', 'researching', 'drafting', 'critiquing', 'merging', 'completed'];
const TERMINAL = new Set(['completed', 'failed']);
const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

export interface BehaviourExchange {
  operationId: string | undefined;
  /** The credential sent (the Authorization header), which scopes idempotency keys and rate-limit windows. */
  credential: string | undefined;
  requestHeaders: Record<string, string>;
  status: number;
  headers: Record<string, string>;
  json: any;
  /** The server's time of the response (ms). */
  serverNow: number;
}

interface Seen {
  status: string;
  deliverables: string[];
}

export class BehaviourChecks {
  private readonly creations = new Map<string, { buildId: string; at: number }>();
  private readonly builds = new Map<string, Seen>();

  inspect(x: BehaviourExchange): Array<{ rule: string; detail: string }> {
    const findings: Array<{ rule: string; detail: string }> = [];
    const fail = (rule: string, detail: string) => findings.push({ rule, detail });
    if (x.status === 429) this.rateLimited(x, fail);
    if (x.status >= 200 && x.status < 300 && x.json && typeof x.json === 'object') {
      if (x.operationId === 'createBuild') this.creation(x, fail);
      if (x.operationId === 'getBuild' && x.json.build) this.poll(x.json.build.id, x.json.build.status, (x.json.deliverables ?? []).map((d: { id: string }) => d.id), fail);
    }
    return findings;
  }

  private creation(x: BehaviourExchange, fail: (rule: string, detail: string) => void): void {
    const key = x.requestHeaders['idempotency-key'];
    const buildId = x.json.buildId;
    if (!key || typeof buildId !== 'string') return;
    const scope = `${x.credential ?? ''}\n${key}`;
    const first = this.creations.get(scope);
    if (!first || x.serverNow - first.at > IDEMPOTENCY_WINDOW_MS) {
      // Not a replay the proxy can vouch for (it may not have seen the first creation).
      this.creations.set(scope, { buildId, at: x.serverNow });
      return;
    }
    if (buildId !== first.buildId || x.json.idempotent !== true) {
      fail(BEHAVIOUR_RULES.replay, `Idempotency-Key ${JSON.stringify(key)} first answered build ${first.buildId}; the replay answered build ${buildId} with idempotent ${JSON.stringify(x.json.idempotent ?? null)}`);
    }
  }

  private rateLimited(x: BehaviourExchange, fail: (rule: string, detail: string) => void): void {
    const remaining = x.headers['x-ratelimit-remaining'];
    const reset = Number(x.headers['x-ratelimit-reset']);
    const retryAfter = x.headers['retry-after'];
    if (remaining !== undefined && remaining !== '0') fail(BEHAVIOUR_RULES.retryAfter, `X-RateLimit-Remaining ${remaining} on a 429`);
    if (retryAfter === undefined || !Number.isFinite(reset)) return;
    const untilReset = (reset * 1000 - x.serverNow) / 1000;
    // The Date header has whole seconds, and Reset too: two seconds of play.
    if (!/^\d+$/.test(retryAfter) || Math.abs(Number(retryAfter) - untilReset) > 2) {
      fail(BEHAVIOUR_RULES.retryAfter, `Retry-After ${retryAfter}, but the window resets in ${untilReset.toFixed(1)} s (server time from Date)`);
    }
  }

  private poll(buildId: string, status: string, deliverables: string[], fail: (rule: string, detail: string) => void): void {
    if (typeof buildId !== 'string' || typeof status !== 'string') return;
    const before = this.builds.get(buildId);
    this.builds.set(buildId, { status, deliverables });
    if (status === 'completed' && deliverables.length === 0) fail(BEHAVIOUR_RULES.deliverables, `build ${buildId} is completed without deliverables`);
    if (status !== 'completed' && deliverables.length > 0) fail(BEHAVIOUR_RULES.deliverables, `build ${buildId} is ${status} with ${deliverables.length} deliverable(s)`);
    if (!before) return;
    if (TERMINAL.has(before.status)) {
      if (status !== before.status) fail(BEHAVIOUR_RULES.terminal, `build ${buildId} was ${before.status}, then ${status}`);
      else if (status === 'completed' && before.deliverables.join() !== deliverables.join()) fail(BEHAVIOUR_RULES.terminal, `build ${buildId}'s deliverables changed after completion`);
      return;
    }
    const from = ORDER.indexOf(before.status);
    const to = ORDER.indexOf(status);
    if (status !== 'failed' && (to < 0 || (from >= 0 && to < from))) fail(BEHAVIOUR_RULES.order, `build ${buildId} went from ${before.status} to ${status}`);
  }
}
