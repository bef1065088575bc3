import { plannedFailure } from '../builds/magic-inputs.js';
import { planSchedule, PIPELINE_STAGES, type PipelineSchedule } from '../builds/pipeline.js';
import type { Clock } from '../clock/clock.js';
import { Rng } from '../random/rng.js';
import type { Account } from '../store/account.js';
import type { BuildOptions } from '../store/records.js';
import type { Steps } from '../state/steps.js';
import type { BuildStatusGoal } from './types.js';

/**
 * Where builds stand once a scenario is loaded, reached the only way the API allows: each build
 * is created on the account's own clock, which then moves on, so every build is at its stated
 * status at the end. A build's stage durations are drawn from the seed and its id, so each is
 * made at an instant chosen to keep every build made before it at its status: those that need
 * the most time first, each later one late enough that its status lasts into the window the
 * earlier ones leave. The id a build will get is read ahead from the account's stream, and
 * the build is checked against what was foreseen once made.
 */

/** When, after its creation, a build is at `goal`: [from, until) in ms; until may be Infinity. */
export function statusWindow(s: PipelineSchedule, goal: BuildStatusGoal): { from: number; until: number } {
  const c = s.createdAt;
  if (goal === 'failed') return { from: (s.failure?.at ?? Infinity) - c, until: Infinity };
  if (goal === 'completed') return { from: s.completeAt - c, until: Infinity };
  if (goal === 'pending') return { from: 0, until: s.stageStart(0) - c };
  const i = PIPELINE_STAGES.indexOf(goal);
  const end = i + 1 < PIPELINE_STAGES.length ? s.stageStart(i + 1) : s.completeAt;
  return { from: s.stageStart(i) - c, until: end - c };
}

/** The build's options as the API fills them in (the same defaults as POST /api/v1/builds). */
function optionsOf(body: Record<string, unknown>): Pick<BuildOptions, 'pages' | 'researchPolicy' | 'researchMode' | 'qualityMode' | 'generateImages'> {
  const suite = body.buildType === 'suite';
  return {
    pages: (body.pages as number | undefined) ?? (suite ? 0 : 1),
    researchPolicy: (body.researchPolicy as BuildOptions['researchPolicy'] | undefined) ?? 'required',
    researchMode: (body.researchMode as BuildOptions['researchMode'] | undefined) ?? 'standard',
    qualityMode: (body.qualityMode as BuildOptions['qualityMode'] | undefined) ?? 'standard',
    generateImages: (body.generateImages as boolean | undefined) ?? false,
  };
}

/** The id the account's next record will get, read from a copy of its stream. */
export function nextId(account: Account): string {
  const peek = new Rng('peek');
  peek.setState(account.idStreamState);
  return peek.uuid();
}

/** What a build's schedule depends on besides its id and the speed, and a key naming it. */
interface BuildShape {
  kind: string;
  schedule: { options: ReturnType<typeof optionsOf>; failAt: ReturnType<typeof plannedFailure> };
}

function shapeOf(build: PlannedBuild): BuildShape {
  const schedule = { options: optionsOf(build.body), failAt: plannedFailure(String(build.body.objective ?? '')) };
  return { kind: JSON.stringify(schedule), schedule };
}

export interface PlannedBuild {
  body: Record<string, unknown>;
  goal: BuildStatusGoal;
}

export interface PlacementSteps {
  account: Account;
  clock: Clock;
  env: { seed: string; speed: number };
  /** Any call that books what time has decided (a refund) before the next id is read. */
  touch(): void;
  /** Creates the build; answers its id. */
  create(build: PlannedBuild): string;
  /** The build as made, to check its status window against the one foreseen. */
  scheduleOf(buildId: string): PipelineSchedule;
  /** Told when a build cannot be at its status together with the builds made before it. */
  refuse(index: number, message: string): never;
}

/**
 * Makes the builds and moves the clock to an instant where each is at its status; answers the
 * builds' ids in the scenario's order. Whichever build is made next gets the same id, so each
 * step weighs every build still to make with that id and makes the one that needs the most time
 * to reach its status (of those that can still fit beside the builds already made). When that
 * leaves a build no room, the caller tries again with `attempt` + 1: a slightly different order.
 * A step ends after each build made (see steps.ts).
 */
export function* placeBuilds(builds: readonly PlannedBuild[], steps: PlacementSteps, attempt = 0): Steps<string[]> {
  // A later attempt weighs the time each build needs with a seeded jitter: another order, other ids, other durations.
  const jitter = attempt === 0 ? () => 1 : ((rng) => () => 0.4 + rng.next())(new Rng(steps.env.seed, 'scenario-placement', attempt));
  const shapes = builds.map(shapeOf);
  const ids: string[] = new Array(builds.length);
  const remaining = builds.map((_, i) => i);
  let low = -Infinity;
  let high = Infinity;
  while (remaining.length > 0) {
    let chosen: { index: number; window: { from: number; until: number } };
    // Moving the clock may book a refund (one more id drawn): weigh the builds again until it holds.
    for (;;) {
      steps.touch();
      const buildId = nextId(steps.account);
      const now = steps.clock.now();
      // Builds of the same options get the same schedule from one id: drawn once per kind, not once per build.
      const schedules = new Map<string, PipelineSchedule>();
      const candidates = remaining.map((index) => {
        const build = builds[index] as PlannedBuild;
        const { kind, schedule } = shapes[index] as BuildShape;
        let drawn = schedules.get(kind);
        if (drawn === undefined) schedules.set(kind, (drawn = planSchedule({ seed: steps.env.seed, buildId, createdAt: 0, ...schedule, speed: steps.env.speed })));
        const window = statusWindow(drawn, build.goal);
        if (!(window.from < window.until)) steps.refuse(index, `at this pipeline speed a build is never seen ${build.goal}: load the scenario into a simulator whose builds take time (speed fast or realistic)`);
        const at = Math.max(now, low - window.until + 1);
        return { index, window, at, fits: at + window.from < high, weight: window.from * jitter() };
      });
      const fitting = candidates.filter((c) => c.fits);
      if (fitting.length === 0) {
        const first = candidates[0] as (typeof candidates)[number];
        steps.refuse(first.index, `cannot be ${(builds[first.index] as PlannedBuild).goal} while the other builds are at theirs: its stages take longer than theirs leave (give it an account of its own, or fewer pages)`);
      }
      const pick = fitting.reduce((best, c) => (c.weight > best.weight ? c : best));
      chosen = pick;
      if (pick.at === now) break;
      steps.clock.advance(pick.at - now);
      yield;
    }
    const now = steps.clock.now();
    const build = builds[chosen.index] as PlannedBuild;
    const id = steps.create(build);
    const made = statusWindow(steps.scheduleOf(id), build.goal);
    if (made.from !== chosen.window.from || made.until !== chosen.window.until) throw new Error(`build ${id} was planned with other stage durations than it got`);
    ids[chosen.index] = id;
    remaining.splice(remaining.indexOf(chosen.index), 1);
    low = Math.max(low, now + chosen.window.from);
    high = Math.min(high, now + chosen.window.until);
    yield;
  }
  if (builds.length > 0) {
    // Half-way through the window every build shares: each stays at its status a while if the clock runs on.
    const end = Number.isFinite(high) ? low + Math.floor((high - low) / 2) : low;
    const now = steps.clock.now();
    if (end > now) steps.clock.advance(end - now);
  }
  return ids;
}
