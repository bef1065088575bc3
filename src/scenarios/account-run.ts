import type { Principal } from '../auth/principal.js';
import type { FieldProblem } from '../errors/api-error.js';
import { failMarkerStage } from '../builds/magic-inputs.js';
import { purchase } from '../ledger/ledger.js';
import { openingDescription } from '../seed/accounts.js';
import type { Account } from '../store/account.js';
import type { Clock } from '../clock/clock.js';
import type { SimulatorState } from '../state/simulator-state.js';
import { AccountCalls, ScenarioError, type InProcessHandle } from './calls.js';
import { placeBuilds, type PlannedBuild } from './placement.js';
import type { Steps } from '../state/steps.js';
import type { LoadedAccount, ScenarioAccount, ScenarioBuild } from './types.js';

/** The keys an account gets when its scenario names none. */
export const DEFAULT_KEYS = [{ name: 'default', scopes: ['svc:read', 'svc:write'] as const }];

/** Fields of a build entry that are the scenario's, not the request body's. */
const BUILD_OWN = new Set(['name', 'target', 'status', 'failedAt', 'shares', 'audio', 'libraryItems']);

export interface AccountRun {
  account: Account;
  clock: Clock;
  /** Tokens bought when the account is made (none when 0). */
  opening: number;
  /** Whether this is the account itself (keys, share links and fault rules are made) or a rehearsal on a copy. */
  real: boolean;
  /** Which order of making the builds to try (see `placeBuilds`). */
  attempt: number;
  /** On a rehearsal: collect every refused call's problems here rather than stop at the first. */
  collect?: FieldProblem[];
}

/** A build that found no room beside the others in this attempt: another attempt may place it. */
export class PlacementRefused extends ScenarioError {}

function without(entry: Record<string, unknown>, fields: Set<string> | string[]): Record<string, unknown> {
  const skip = fields instanceof Set ? fields : new Set(fields);
  return Object.fromEntries(Object.entries(entry).filter(([key]) => !skip.has(key)));
}

/** The build's request body: its target and library items by id, a failure by the API's own `[fail:<stage>]` marker. */
function buildBody(build: ScenarioBuild, path: string, targets: Record<string, string>, library: Record<string, string>): Record<string, unknown> {
  const body = without(build, BUILD_OWN);
  body.targetId = targets[build.target];
  const names = build.libraryItems;
  if (names !== undefined) {
    if (!Array.isArray(names) || names.some((n) => typeof n !== 'string' || !Object.hasOwn(library, n))) {
      throw new ScenarioError([{ path: `${path}.libraryItems`, message: `must name library items of the account (${Object.keys(library).join(', ') || 'none stated'})` }]);
    }
    body.libraryItemIds = names.map((n) => library[n as string]);
  }
  const marked = typeof build.objective === 'string' ? failMarkerStage(build.objective) : null;
  if (marked !== null && (build.status !== 'failed' || marked !== build.failedAt)) {
    throw new ScenarioError([{ path: `${path}.objective`, message: `its [fail:${marked}] marker makes the build fail in ${marked}, but the scenario says it is ${build.status}${build.failedAt ? ` (failing in ${build.failedAt})` : ''}` }]);
  }
  if (build.status === 'failed' && marked === null && typeof build.objective === 'string') body.objective = `${build.objective} [fail:${build.failedAt}]`;
  return body;
}

/**
 * Runs one account of a scenario through the service API: its purchases, targets and library,
 * its builds placed at their statuses on its own clock, then images, listen versions and chats;
 * for the real account also its share links, keys and fault rules. Answers what it made by name.
 * A step ends after each request (see steps.ts).
 */
export function* runAccount(sim: SimulatorState, handle: InProcessHandle, spec: ScenarioAccount, path: string, run: AccountRun): Steps<LoadedAccount> {
  const { account, clock } = run;
  const principal: Principal = { account, credentialId: `scenario:${account.id}`, scopes: ['svc:read', 'svc:write'], hint: 'scenario', kind: 'api_key' };
  const calls = new AccountCalls(handle, principal, sim.seed, !run.real, sim.limiter, () => sim.clock.now(), run.collect);
  const made: LoadedAccount = { accountId: account.id, now: '', keys: {}, targets: {}, library: {}, builds: {}, shares: {}, audio: {}, images: {}, chats: {}, faults: {} };

  if (run.opening > 0) purchase(account, run.opening, openingDescription(run.opening), clock.now());
  for (const [i, p] of (spec.purchases ?? []).entries()) {
    calls.call('POST', '/api/v1/tokens/purchases', `${path}.purchases[${i}]`, { bundleId: p.bundle }, { bundleId: 'bundle' });
    yield;
  }
  for (const [i, target] of (spec.targets ?? []).entries()) {
    const at = `${path}.targets[${i}]`;
    const created = calls.call('POST', '/api/v1/targets', at, without(target, ['library']));
    made.targets[target.slug] = created.id as string;
    yield;
    for (const [j, item] of (target.library ?? []).entries()) {
      const madeItem = calls.call('POST', `/api/v1/targets/${created.id as string}/library`, `${at}.library[${j}]`, item);
      made.library[item.name] = madeItem.id as string;
      yield;
    }
  }

  const builds = spec.builds ?? [];
  const planned: PlannedBuild[] = builds.map((b, i) => ({ body: buildBody(b, `${path}.builds[${i}]`, made.targets, made.library), goal: b.status }));
  const ids = yield* placeBuilds(planned, {
    account,
    clock,
    env: sim.builds,
    touch: () => void calls.call('GET', '/api/v1/tokens/balance', path),
    create: (build) => calls.call('POST', '/api/v1/builds', `${path}.builds[${planned.indexOf(build)}]`, build.body, { targetId: 'target', libraryItemIds: 'libraryItems' }).buildId as string,
    scheduleOf: (id) => account.builds.require(id).schedule,
    refuse: (index, message) => {
      throw new PlacementRefused([{ path: `${path}.builds[${index}].status`, message }]);
    },
  }, run.attempt);
  for (const [i, build] of builds.entries()) {
    const at = `${path}.builds[${i}]`;
    const buildId = ids[i] as string;
    const view = calls.call('GET', `/api/v1/builds/${buildId}`, at) as { build: { status: string }; deliverables: Array<{ id: string }> };
    if (view.build.status !== build.status) throw new Error(`build ${buildId} is ${view.build.status}, placed to be ${build.status}`);
    const deliverableIds = view.deliverables.map((d) => d.id);
    made.builds[build.name] = { buildId, status: build.status, deliverableIds };
    yield;
    const page = (entry: { page?: number }, where: string): string => {
      const id = deliverableIds[entry.page ?? 0];
      if (id === undefined) throw new ScenarioError([{ path: `${where}.page`, message: `the build has ${deliverableIds.length} page(s), numbered from 0` }]);
      return id;
    };
    for (const [j, a] of (build.audio ?? []).entries()) {
      const where = `${at}.audio[${j}]`;
      made.audio[a.name] = calls.call('POST', `/api/v1/deliverables/${page(a, where)}/audio`, where, { voice: a.voice }).id as string;
      yield;
    }
    for (const [j, s] of (build.shares ?? []).entries()) {
      const where = `${at}.shares[${j}]`;
      const deliverableId = page(s, where);
      if (!run.real) continue;
      const share = calls.call('POST', `/api/v1/deliverables/${deliverableId}/shares`, where, s.expiresInSeconds === undefined ? {} : { expiresInSeconds: s.expiresInSeconds });
      made.shares[s.name] = { shareId: share.id as string, token: share.token as string, url: share.url as string };
      yield;
    }
  }
  for (const [i, image] of (spec.images ?? []).entries()) {
    made.images[image.name] = calls.call('POST', '/api/v1/images', `${path}.images[${i}]`, without(image, ['name'])).id as string;
    yield;
  }
  for (const [i, chat] of (spec.chats ?? []).entries()) {
    const at = `${path}.chats[${i}]`;
    const created = calls.call('POST', '/api/v1/chats', at, { targetId: made.targets[chat.target], ...(chat.title === undefined ? {} : { title: chat.title }) }, { targetId: 'target' });
    made.chats[chat.name] = created.id as string;
    yield;
    for (const [j, content] of (chat.messages ?? []).entries()) {
      calls.call('POST', `/api/v1/chats/${created.id as string}/messages`, `${at}.messages[${j}]`, { content }, { content: '' });
      yield;
    }
  }

  // Fault rules are tried on the rehearsal too (so a refused one leaves nothing half-made), then taken away.
  for (const [i, fault] of (spec.faults ?? []).entries()) {
    const rule = calls.control('POST', '/_sim/faults', `${path}.faults[${i}]`, { ...without(fault, ['name']), accountId: account.id });
    if (run.real) made.faults[fault.name as string] = rule.id as string;
    else sim.faults.remove(rule.id as string);
  }
  if (run.real) yield* makeKeys(calls, spec, path, made);
  return made;
}

/** The account's keys, made through the API (their values from the simulator's secret source), then revoked or spent. */
function* makeKeys(calls: AccountCalls, spec: ScenarioAccount, path: string, made: LoadedAccount): Steps<void> {
  const keys = spec.keys ?? DEFAULT_KEYS;
  for (const [i, key] of keys.entries()) {
    const at = `${path}.keys[${i}]`;
    const issued = calls.call('POST', '/api/v1/keys', at, { name: key.name, scopes: key.scopes });
    made.keys[key.name] = issued.value as string;
    if ('revoked' in key && key.revoked) calls.call('DELETE', `/api/v1/keys/${issued.id as string}`, at);
    // Its window spent in the limiter, whatever the limits: the key's next call is 429 until it ends.
    if ('rateLimited' in key && key.rateLimited) calls.spendWindow(issued.id as string);
    yield;
  }
}
