import { ContractFailure, expectThat } from '../shared/outcomes.js';
import type { SessionView as Session } from './session-view.js';

/** States and transitions: the documented statuses, in the order the pipeline moves through them. */
export const STATUS_ORDER = ['pending', 'researching', 'drafting', 'critiquing', 'merging', 'completed'] as const;
export const TERMINAL = new Set(['completed', 'failed']);

export interface Observation {
  /** Service time of the poll, ms. */
  at: number;
  status: string;
  deliverableIds: string[];
  /** The whole `GET /builds/{id}` body. */
  body: any;
}

export interface BuildRun {
  buildId: string;
  /** Service time of the creation. */
  createdAt: number;
  /** The polling step aimed at, ms of service time. */
  stepMs: number;
  observations: Observation[];
  final: Observation;
}

/** One poll of a build: `GET /builds/{id}`, which must answer its build and deliverables. */
export async function pollBuild(s: Session, buildId: string): Promise<Observation> {
  const at = s.time.now();
  const reply = await s.client.op('getBuild', { buildId });
  expectThat(reply.status >= 200 && reply.status < 300, `Endpoints: GET /api/v1/builds/:id answers the build it created: got ${reply.status} for ${buildId}`);
  const body = reply.json;
  expectThat(body && typeof body.build === 'object' && Array.isArray(body.deliverables), `Resources, Build: the retrieval answers {build, deliverables}: got ${reply.text.slice(0, 200)}`);
  return { at, status: String(body.build.status), deliverableIds: body.deliverables.map((d: any) => String(d?.id)), body };
}

/**
 * Polls builds until each is completed or failed: every `stepMs` of service time (the
 * simulator's clock moves; a real service is waited for), all builds in turn.
 */
export async function observeBuilds(s: Session, builds: Array<{ buildId: string; createdAt: number }>, stepMs: number, maxPolls = 400): Promise<BuildRun[]> {
  const runs = builds.map((b) => ({ ...b, stepMs, observations: [] as Observation[] }));
  for (let round = 0; ; round++) {
    const open = runs.filter((r) => !TERMINAL.has(r.observations.at(-1)?.status ?? ''));
    if (open.length === 0) break;
    if (round >= maxPolls) {
      const states = open.map((r) => `${r.buildId}: ${r.observations.at(-1)?.status}`).join(', ');
      throw new ContractFailure(`States: a build ends in completed or failed: still not ended after ${maxPolls} polls (${states})`);
    }
    if (round > 0) await s.time.sleep(stepMs);
    for (const run of open) run.observations.push(await pollBuild(s, run.buildId));
  }
  return runs.map((r) => ({ ...r, final: r.observations.at(-1) as Observation }));
}

export async function observeBuild(s: Session, buildId: string, createdAt: number, stepMs: number): Promise<BuildRun> {
  const [run] = await observeBuilds(s, [{ buildId, createdAt }], stepMs);
  return run as BuildRun;
}

/** States: only documented statuses; never backwards; nothing after completed or failed. */
export function orderProblems(observations: readonly Observation[]): string[] {
  const problems: string[] = [];
  let previous: string | undefined;
  for (const o of observations) {
    const known = (STATUS_ORDER as readonly string[]).includes(o.status) || o.status === 'failed';
    if (!known) problems.push(`status ${JSON.stringify(o.status)} is not one of ${[...STATUS_ORDER, 'failed'].join(', ')}`);
    if (previous !== undefined && known) {
      if (TERMINAL.has(previous) && o.status !== previous) problems.push(`${previous} is terminal, yet the build then showed ${o.status}`);
      else if (o.status !== 'failed' && STATUS_ORDER.indexOf(o.status as never) < STATUS_ORDER.indexOf(previous as never)) {
        problems.push(`${o.status} came after ${previous}`);
      }
    }
    previous = o.status;
  }
  return problems;
}

/** Transitions that jumped over a status although the polls were close enough to see it. */
export function skippedStatuses(run: BuildRun): string[] {
  const problems: string[] = [];
  const first = run.observations[0];
  if (first && first.at === run.createdAt && first.status !== 'pending' && first.status !== 'failed') {
    problems.push(`the first poll, at the very instant of creation, showed ${first.status}, not pending`);
  }
  for (let i = 1; i < run.observations.length; i++) {
    const a = run.observations[i - 1] as Observation;
    const b = run.observations[i] as Observation;
    if (b.status === 'failed' || b.at - a.at > run.stepMs) continue;
    const from = STATUS_ORDER.indexOf(a.status as never);
    const to = STATUS_ORDER.indexOf(b.status as never);
    if (from >= 0 && to > from + 1) {
      problems.push(`${a.status} → ${b.status} within ${b.at - a.at} ms skipped ${STATUS_ORDER.slice(from + 1, to).join(', ')}`);
    }
  }
  return problems;
}

/** States: deliverables are there exactly when the build is completed. */
export function deliverableTimingProblems(observations: readonly Observation[]): string[] {
  const problems: string[] = [];
  for (const o of observations) {
    if (o.status !== 'completed' && o.deliverableIds.length > 0) problems.push(`${o.deliverableIds.length} deliverable(s) while ${o.status}`);
    if (o.status === 'completed' && o.deliverableIds.length === 0) problems.push('no deliverable although completed');
  }
  return problems;
}
