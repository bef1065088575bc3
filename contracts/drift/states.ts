import { DRIFT_RULES, type Drift } from './rules.js';

/** The pipeline's order (spec, States); `failed` may follow any state before `completed`. */
const ORDER = ['pending', 'researching', 'drafting', 'critiquing', 'merging', 'completed'];
export const FINAL_STATES = new Set(['completed', 'failed']);

interface Seen {
  status: string;
  call: number;
  method: string;
  url: string;
}

interface BuildStates {
  recorded: Seen[];
  replayed: Seen[];
}

/**
 * Each build's states as the recording saw them and as the replay sees them, keyed by the
 * recording's build id. Polls land at other points of the pipeline on either side (stages last
 * as long as each implementation makes them), so states are compared as sequences: the order,
 * the states seen, the state the build ended in; never the state of one poll.
 */
export class StateTracker {
  private readonly builds = new Map<string, BuildStates>();

  observe(buildId: string, side: 'recorded' | 'replayed', seen: Seen): void {
    let b = this.builds.get(buildId);
    if (!b) this.builds.set(buildId, (b = { recorded: [], replayed: [] }));
    const list = b[side];
    if (list[list.length - 1]?.status !== seen.status) list.push(seen);
  }

  /** The replayed build's latest state. */
  latest(buildId: string): string | undefined {
    const list = this.builds.get(buildId)?.replayed;
    return list?.[list.length - 1]?.status;
  }

  drifts(): Drift[] {
    const out: Drift[] = [];
    for (const [buildId, b] of this.builds) {
      if (!b.recorded.length || !b.replayed.length) continue;
      const rec = b.recorded.map((s) => s.status);
      const rep = b.replayed.map((s) => s.status);
      const where = (s: Seen) => ({ call: s.call, method: s.method, url: s.url, operationId: 'getBuild' });
      const last = b.replayed[b.replayed.length - 1] as Seen;
      for (const [i, s] of b.replayed.entries()) {
        const before = b.replayed[i - 1];
        if (!before) continue;
        const backwards = s.status !== 'failed' && ORDER.indexOf(s.status) >= 0 && ORDER.indexOf(before.status) > ORDER.indexOf(s.status);
        if (FINAL_STATES.has(before.status) || backwards) {
          out.push({ ...where(s), rule: 'stateOrder', field: 'build.status', recorded: rec, replayed: rep, explanation: `${DRIFT_RULES.stateOrder}: build ${buildId} went from ${before.status} to ${s.status}` });
        }
      }
      for (const status of rec) {
        if (!rep.includes(status) && !FINAL_STATES.has(status)) {
          out.push({ ...where(last), rule: 'stateSkipped', field: 'build.status', recorded: status, replayed: rep, explanation: `${DRIFT_RULES.stateSkipped}: build ${buildId} was seen ${rec.join(' → ')} in the recording, ${rep.join(' → ')} in the replay (polled at the recording's times)` });
        }
      }
      const recFinal = rec[rec.length - 1] as string;
      const repFinal = rep[rep.length - 1] as string;
      if (FINAL_STATES.has(recFinal) && recFinal !== repFinal) {
        out.push({ ...where(last), rule: 'stateFinal', field: 'build.status', recorded: recFinal, replayed: repFinal, explanation: `${DRIFT_RULES.stateFinal}: build ${buildId} ended ${recFinal} in the recording and is ${repFinal} after the replay's polls` });
      }
    }
    return out;
  }
}

/** The build an answer describes (`{ build: { id, status } }`, as GET /api/v1/builds/{id} answers), if any. */
export function buildOf(json: unknown): { id: string; status: string } | undefined {
  const b = (json as { build?: { id?: unknown; status?: unknown } } | undefined)?.build;
  return b && typeof b.id === 'string' && typeof b.status === 'string' ? { id: b.id, status: b.status } : undefined;
}
