import type { FieldProblem } from '../errors/api-error.js';
import type { Scenario } from './types.js';

/**
 * The scenario's own shape (what is not an API request body): names, statuses, references
 * between its parts. Request bodies are left to the API's validation when they are sent.
 * Answers every problem, each at the path where it is (`accounts[0].builds[2].status`).
 */
export const STATUSES = ['pending', 'researching', 'drafting', 'critiquing', 'merging', 'completed', 'failed'];
const STAGES = ['researching', 'drafting', 'critiquing', 'merging'];
const SCOPES = ['svc:read', 'svc:write'];
const NAME = /^[A-Za-z0-9][A-Za-z0-9 _.-]{0,79}$/;
const LIMITS = { accounts: 20, keys: 25, targets: 50, builds: 100, images: 50, chats: 50, faults: 20, purchases: 50, library: 100, messages: 20, shares: 10, audio: 10 } as const;

const EARLIEST = Date.UTC(1971, 0, 1);
const LATEST = Date.UTC(9998, 11, 31);

type Problems = FieldProblem[];
type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function list(parent: Json, key: keyof typeof LIMITS, path: string, problems: Problems): Json[] {
  const value = parent[key];
  if (value === undefined) return [];
  if (!Array.isArray(value)) return void problems.push({ path: `${path}.${key}`, message: 'must be a list' }), [];
  if (value.length > LIMITS[key]) problems.push({ path: `${path}.${key}`, message: `holds at most ${LIMITS[key]} entries` });
  return value.map((item, i) => {
    if (!isObject(item)) problems.push({ path: `${path}.${key}[${i}]`, message: 'must be an object' });
    return isObject(item) ? item : {};
  });
}

/** Checks `name` and that it is unique among `seen`. */
function named(item: Json, path: string, seen: Set<string>, problems: Problems): void {
  const name = item.name;
  if (typeof name !== 'string' || !NAME.test(name)) {
    problems.push({ path: `${path}.name`, message: 'must be a name of 1 to 80 letters, digits, spaces, dots, dashes or underscores' });
  } else if (seen.has(name)) {
    problems.push({ path: `${path}.name`, message: `"${name}" is already the name of another entry` });
  } else seen.add(name);
}

function only(item: Json, path: string, allowed: string[], problems: Problems): void {
  for (const key of Object.keys(item)) if (!allowed.includes(key)) problems.push({ path: `${path}.${key}`, message: `is not a field here (${allowed.join(', ')})` });
}

function checkKeys(account: Json, path: string, problems: Problems): void {
  const seen = new Set<string>();
  list(account, 'keys', path, problems).forEach((key, i) => {
    const at = `${path}.keys[${i}]`;
    named(key, at, seen, problems);
    only(key, at, ['name', 'scopes', 'revoked', 'rateLimited'], problems);
    const scopes = key.scopes;
    if (!Array.isArray(scopes) || scopes.length === 0 || scopes.some((s) => !SCOPES.includes(s as string))) {
      problems.push({ path: `${at}.scopes`, message: `must list one or both of ${SCOPES.join(', ')}` });
    }
    for (const flag of ['revoked', 'rateLimited']) if (key[flag] !== undefined && typeof key[flag] !== 'boolean') problems.push({ path: `${at}.${flag}`, message: 'must be true or false' });
    if (key.revoked === true && key.rateLimited === true) problems.push({ path: `${at}.rateLimited`, message: 'a revoked key makes no calls, so it cannot spend its minute' });
  });
}

function checkBuilds(account: Json, path: string, slugs: Set<string>, problems: Problems): void {
  const seen = new Set<string>();
  const shareNames = new Set<string>();
  const audioNames = new Set<string>();
  list(account, 'builds', path, problems).forEach((build, i) => {
    const at = `${path}.builds[${i}]`;
    named(build, at, seen, problems);
    if (typeof build.target !== 'string' || !slugs.has(build.target)) problems.push({ path: `${at}.target`, message: `must be the slug of one of the account's targets (${[...slugs].join(', ') || 'none stated'})` });
    if (!STATUSES.includes(build.status as string)) problems.push({ path: `${at}.status`, message: `must be one of ${STATUSES.join(', ')}` });
    if (build.status === 'failed' && !STAGES.includes(build.failedAt as string)) problems.push({ path: `${at}.failedAt`, message: `a failed build fails in one of ${STAGES.join(', ')}` });
    if (build.status !== 'failed' && build.failedAt !== undefined) problems.push({ path: `${at}.failedAt`, message: 'only a build whose status is failed fails in a stage' });
    for (const key of ['targetId', 'libraryItemIds']) if (key in build) problems.push({ path: `${at}.${key}`, message: key === 'targetId' ? 'name the target by its slug in `target`' : 'name library items by name in `libraryItems`' });
    const completed = build.status === 'completed';
    list(build, 'shares', at, problems).forEach((share, j) => {
      named(share, `${at}.shares[${j}]`, shareNames, problems);
      only(share, `${at}.shares[${j}]`, ['name', 'page', 'expiresInSeconds'], problems);
      if (!completed) problems.push({ path: `${at}.shares[${j}]`, message: 'only a completed build has deliverables to share' });
    });
    list(build, 'audio', at, problems).forEach((audio, j) => {
      named(audio, `${at}.audio[${j}]`, audioNames, problems);
      only(audio, `${at}.audio[${j}]`, ['name', 'voice', 'page'], problems);
      if (!completed) problems.push({ path: `${at}.audio[${j}]`, message: 'only a completed build has deliverables to read aloud' });
    });
  });
}

function checkAccount(account: Json, path: string, problems: Problems): void {
  only(account, path, ['name', 'balance', 'clock', 'keys', 'purchases', 'targets', 'builds', 'images', 'chats', 'faults'], problems);
  if (account.balance !== undefined && (!Number.isInteger(account.balance) || (account.balance as number) < 0 || (account.balance as number) > 1e9)) {
    problems.push({ path: `${path}.balance`, message: 'must be a whole number of tokens from 0 to 1000000000' });
  }
  const clock = account.clock;
  if (clock !== undefined) {
    if (!isObject(clock)) problems.push({ path: `${path}.clock`, message: 'must be an object ({ at, running })' });
    else {
      only(clock, `${path}.clock`, ['at', 'running'], problems);
      const at = typeof clock.at === 'string' ? Date.parse(clock.at) : NaN;
      // A year of room either side: the history before it, the clock moved on after it.
      if (clock.at !== undefined && !(at >= EARLIEST && at <= LATEST)) problems.push({ path: `${path}.clock.at`, message: 'must be an ISO 8601 instant from 1971 to 9998' });
      if (clock.running !== undefined && typeof clock.running !== 'boolean') problems.push({ path: `${path}.clock.running`, message: 'must be true or false' });
    }
  }
  checkKeys(account, path, problems);
  list(account, 'purchases', path, problems).forEach((p, i) => {
    only(p, `${path}.purchases[${i}]`, ['bundle'], problems);
    if (typeof p.bundle !== 'string') problems.push({ path: `${path}.purchases[${i}].bundle`, message: 'must name a bundle (GET /api/v1/tokens/bundles)' });
  });
  const slugs = new Set<string>();
  const libraryNames = new Set<string>();
  list(account, 'targets', path, problems).forEach((target, i) => {
    if (typeof target.slug === 'string') slugs.add(target.slug);
    list(target, 'library', `${path}.targets[${i}]`, problems).forEach((item, j) => named(item, `${path}.targets[${i}].library[${j}]`, libraryNames, problems));
  });
  checkBuilds(account, path, slugs, problems);
  const images = new Set<string>();
  list(account, 'images', path, problems).forEach((image, i) => named(image, `${path}.images[${i}]`, images, problems));
  const chats = new Set<string>();
  list(account, 'chats', path, problems).forEach((chat, i) => {
    const at = `${path}.chats[${i}]`;
    named(chat, at, chats, problems);
    only(chat, at, ['name', 'target', 'title', 'messages'], problems);
    if (typeof chat.target !== 'string' || !slugs.has(chat.target)) problems.push({ path: `${at}.target`, message: "must be the slug of one of the account's targets" });
    const messages = chat.messages;
    if (messages !== undefined && (!Array.isArray(messages) || messages.length > LIMITS.messages || messages.some((m) => typeof m !== 'string'))) {
      problems.push({ path: `${at}.messages`, message: `must be a list of at most ${LIMITS.messages} messages (text)` });
    }
  });
  const faults = new Set<string>();
  list(account, 'faults', path, problems).forEach((fault, i) => {
    named(fault, `${path}.faults[${i}]`, faults, problems);
    if ('accountId' in fault) problems.push({ path: `${path}.faults[${i}].accountId`, message: "a scenario's fault rules are its account's: leave accountId out" });
  });
}

/** Every problem of the scenario's shape; none: it may be loaded (its requests are judged then). */
export function scenarioProblems(scenario: unknown): Problems {
  const problems: Problems = [];
  if (!isObject(scenario)) return [{ path: '', message: 'a scenario is an object with `scenario` (its name) and `accounts`' }];
  only(scenario, '', ['scenario', 'description', 'accounts', '$schema'], problems);
  if (typeof scenario.scenario !== 'string' || !NAME.test(scenario.scenario)) problems.push({ path: 'scenario', message: 'must name the scenario (1 to 80 letters, digits, spaces, dots, dashes or underscores)' });
  if (scenario.description !== undefined && typeof scenario.description !== 'string') problems.push({ path: 'description', message: 'must be text' });
  const accounts = list(scenario, 'accounts', '', problems);
  if (!Array.isArray(scenario.accounts) || accounts.length === 0) problems.push({ path: 'accounts', message: 'must list at least one account' });
  const names = new Set<string>();
  accounts.forEach((account, i) => {
    named(account, `accounts[${i}]`, names, problems);
    checkAccount(account, `accounts[${i}]`, problems);
  });
  // Paths start at the root: `.accounts` read from the top is `accounts`.
  return problems.map((p) => ({ ...p, path: p.path.replace(/^\./, '') }));
}

export function isScenario(value: unknown): value is Scenario {
  return scenarioProblems(value).length === 0;
}
