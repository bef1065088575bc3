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
 */
export function runAccount(sim: SimulatorState, handle: InProcessHandle, spec: ScenarioAccount, path: string, run: AccountRun): LoadedAccount {
  const { account, clock } = run;
  const principal: Principal = { account, credentialId: `scenario:${account.id}`, scopes: ['svc:read', 'svc:write'], hint: 'scenario', kind: 'api_key' };
  const calls = new AccountCalls(handle, principal, sim.seed, !run.real, run.collect);
  const made: LoadedAccount = { accountId: account.id, now: '', keys: {}, targets: {}, library: {}, builds: {}, shares: {}, audio: {}, images: {}, chats: {}, faults: {} };

  if (run.opening > 0) purchase(account, run.opening, openingDescription(run.opening), clock.now());
  (spec.purchases ?? []).forEach((p, i) => calls.call('POST', '/api/v1/tokens/purchases', `${path}.purchases[${i}]`, { bundleId: p.bundle }, { bundleId: 'bundle' }));
  (spec.targets ?? []).forEach((target, i) => {
    const at = `${path}.targets[${i}]`;
    const created = calls.call('POST', '/api/v1/targets', at, without(target, ['library']));
    made.targets[target.slug] = created.id as string;
    (target.library ?? []).forEach((item, j) => {
      const madeItem = calls.call('POST', `/api/v1/targets/${created.id as string}/library`, `${at}.library[${j}]`, item);
      made.library[item.name] = madeItem.id as string;
    });
  });

  const builds = spec.builds ?? [];
  const planned: PlannedBuild[] = builds.map((b, i) => ({ body: buildBody(b, `${path}.builds[${i}]`, made.targets, made.library), goal: b.status }));
  const ids = placeBuilds(planned, {
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
  builds.forEach((build, i) => {
    const at = `${path}.builds[${i}]`;
    const buildId = ids[i] as string;
    const view = calls.call('GET', `/api/v1/builds/${buildId}`, at) as { build: { status: string }; deliverables: Array<{ id: string }> };
    if (view.build.status !== build.status) throw new Error(`build ${buildId} is ${view.build.status}, placed to be ${build.status}`);
    const deliverableIds = view.deliverables.map((d) => d.id);
    made.builds[build.name] = { buildId, status: build.status, deliverableIds };
    const page = (entry: { page?: number }, where: string): string => {
      const id = deliverableIds[entry.page ?? 0];
      if (id === undefined) throw new ScenarioError([{ path: `${where}.page`, message: `the build has ${deliverableIds.length} page(s), numbered from 0` }]);
      return id;
    };
    (build.audio ?? []).forEach((a, j) => {
      const where = `${at}.audio[${j}]`;
      made.audio[a.name] = calls.call('POST', `/api/v1/deliverables/${page(a, where)}/audio`, where, { voice: a.voice }).id as string;
    });
    (build.shares ?? []).forEach((s, j) => {
      const where = `${at}.shares[${j}]`;
      const deliverableId = page(s, where);
      if (!run.real) return;
      const share = calls.call('POST', `/api/v1/deliverables/${deliverableId}/shares`, where, s.expiresInSeconds === undefined ? {} : { expiresInSeconds: s.expiresInSeconds });
      made.shares[s.name] = { shareId: share.id as string, token: share.token as string, url: share.url as string };
    });
  });
  (spec.images ?? []).forEach((image, i) => {
    made.images[image.name] = calls.call('POST', '/api/v1/images', `${path}.images[${i}]`, without(image, ['name'])).id as string;
  });
  (spec.chats ?? []).forEach((chat, i) => {
    const at = `${path}.chats[${i}]`;
    const created = calls.call('POST', '/api/v1/chats', at, { targetId: made.targets[chat.target], ...(chat.title === undefined ? {} : { title: chat.title }) }, { targetId: 'target' });
    made.chats[chat.name] = created.id as string;
    (chat.messages ?? []).forEach((content, j) => calls.call('POST', `/api/v1/chats/${created.id as string}/messages`, `${at}.messages[${j}]`, { content }, { content: '' }));
  });

  // Fault rules are tried on the rehearsal too (so a refused one leaves nothing half-made), then taken away.
  (spec.faults ?? []).forEach((fault, i) => {
    const rule = calls.control('POST', '/_sim/faults', `${path}.faults[${i}]`, { ...without(fault, ['name']), accountId: account.id });
    if (run.real) made.faults[fault.name as string] = rule.id as string;
    else sim.faults.remove(rule.id as string);
  });
  if (run.real) makeKeys(calls, spec, path, made);
  return made;
}

/** The account's keys, made through the API (their values from the simulator's secret source), then revoked or spent. */
function makeKeys(calls: AccountCalls, spec: ScenarioAccount, path: string, made: LoadedAccount): void {
  const keys = spec.keys ?? DEFAULT_KEYS;
  keys.forEach((key, i) => {
    const at = `${path}.keys[${i}]`;
    const issued = calls.call('POST', '/api/v1/keys', at, { name: key.name, scopes: key.scopes });
    made.keys[key.name] = issued.value as string;
    if ('revoked' in key && key.revoked) calls.call('DELETE', `/api/v1/keys/${issued.id as string}`, at);
    if ('rateLimited' in key && key.rateLimited) {
      // Spent the way a client spends it: calls with the key until the API answers 429.
      for (let n = 0; n < 1000 && calls.asKey(made.keys[key.name] as string, 'GET', '/api/v1/tokens/balance') !== 429; n++);
    }
  });
}
