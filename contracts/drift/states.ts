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
  /** How many of the recording's polls saw each state. */
  recordedPolls: Map<string, number>;
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
    if (!b) this.builds.set(buildId, (b = { recorded: [], replayed: [], recordedPolls: new Map() }));
    if (side === 'recorded') b.recordedPolls.set(seen.status, (b.recordedPolls.get(seen.status) ?? 0) + 1);
    const list = b[side];
    if (list[list.length - 1]?.status !== seen.status) list.push(seen);
  }

  /** The replayed build's latest state. */
  latest(buildId: string): string | undefined {
    const list = this.builds.get(buildId)?.replayed;
    return list?.[list.length - 1]?.status;
  }

  /**
   * Whether the replay's polls would have seen a state the target has: they saw states before and
   * after it, and it lasted long enough in the recording for more than one poll to see it. Stages
   * last as long as each implementation makes them: a state one poll caught in the recording, or
   * one before the replay's first poll, may pass unseen between polls without being skipped.
   */
  private couldHaveSeen(status: string, replayed: string[], recordedPolls: number): boolean {
    const at = ORDER.indexOf(status);
    const before = replayed.some((s) => ORDER.indexOf(s) >= 0 && ORDER.indexOf(s) < at);
    const after = replayed.some((s) => s === 'failed' || ORDER.indexOf(s) > at);
    return before && after && recordedPolls >= 2;
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
        if (!rep.includes(status) && !FINAL_STATES.has(status) && this.couldHaveSeen(status, rep, b.recordedPolls.get(status) ?? 0)) {
          out.push({ ...where(last), rule: 'stateSkipped', field: 'build.status', recorded: status, replayed: rep, explanation: `${DRIFT_RULES.stateSkipped}: build ${buildId} was seen ${rec.join(' → ')} in the recording (${status} at ${b.recordedPolls.get(status)} polls), ${rep.join(' → ')} in the replay, polled at the same times` });
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
