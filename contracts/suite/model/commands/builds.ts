import { ApiModel, STAGES, statusIndex, TERMINAL_AFTER_MS, type ModelAccount, type ModelBuild } from '../model.js';
import type { Answer, Span, World } from '../world.js';
import { expectOk, expectRefused, expectRoleRefusal, fail, keyOf, pick, refusalFor, seen, type As, type ModelCommand, type Via } from './common.js';

const REPLAY = 'Endpoints rule 2: the same Idempotency-Key within 24 hours returns the existing build with idempotent: true, creates no build and charges nothing';
const CREATE = 'Endpoints rule 4, Resources: a build creation answers a new buildId (without idempotent) and charges the build\'s cost';
const SHORT = 'Endpoints rule 4, Errors: a build the balance cannot pay fails with 402 INSUFFICIENT_TOKENS carrying required, available and shortfall = required − available, and charges nothing';
const FOREIGN_TARGET = 'References: a build for another account\'s target is refused (openapi.yaml, strict: 404 NOT_FOUND), charges nothing, and leaves its Idempotency-Key unused';
const CONCURRENT = 'Endpoints rule 2: first calls with one Idempotency-Key sent at once create one build: one creation, the others replays of it, one charge';
const STATES = 'States and transitions: a build moves pending → researching → drafting → critiquing → merging → completed, never back, may end failed, and completed and failed are final';
const DELIVERABLES = 'States: deliverables are available on the build retrieval response when it completes (openapi.yaml: empty until then)';
const FIELDS = 'openapi.yaml, Build: the build answers what it was created with (id, targetId, kind, cost, idempotencyKey)';
const FAILURE = 'openapi.yaml, BuildFailure; the simulator\'s [fail:<stage>] input: the build fails in that stage, never completes, and refunds its cost';
const STATUS_COMPLETED = 5;
const ENDS = 'Spec, a blog takes 3 to 8 minutes: on the simulator, an hour after creation a build has ended (completed, or failed for a [fail:<stage>] objective)';

export type KeyChoice = { mode: 'fresh' } | { mode: 'none' } | { mode: 'reuse'; n: number; sameBody: boolean };

export interface BuildSpec {
  kind: string;
  /** The stage a `[fail:<stage>]` objective names (the simulator only). */
  fail?: (typeof STAGES)[number];
}

/** The request a build creation sends, and what the model makes of it. */
interface Attempt {
  account: ModelAccount;
  key: string | null;
  body: Record<string, unknown>;
  target: { id: string; own: boolean };
  cost: number;
  failStage: string | null;
}

function send(world: World, model: ApiModel, t: Attempt, via: Via): Promise<Answer> {
  const rw = keyOf(model, t.account, 'readWrite') as string;
  if (via === 'mcp') return world.mcp(rw, 'createBuild', { ...t.body, ...(t.key ? { idempotencyKey: t.key } : {}) });
  return world.rest('createBuild', { key: rw, body: t.body, headers: t.key ? { 'Idempotency-Key': t.key } : undefined });
}

/** Applies a creation the model expected (or accepted) to the model; `at`: when the server may have made it. */
function created(model: ApiModel, t: Attempt, a: Answer, at: Span = a.within): ModelBuild {
  const id = a.json?.buildId;
  if (typeof id !== 'string' || model.allBuildIds().has(id)) fail(CREATE, `a new buildId: ${seen(a)}`);
  if (a.json && 'idempotent' in a.json) fail(CREATE, `idempotent is present only on a replay: ${seen(a)}`);
  const build: ModelBuild = {
    id, account: t.account.label, targetId: t.target.id, kind: String(t.body.kind), cost: t.cost, createdAt: at,
    idempotencyKey: t.key, failStage: t.failStage, seen: undefined, refund: t.failStage ? 'pending' : 'none',
  };
  t.account.builds.push(build);
  t.account.balance -= t.cost;
  t.account.lifetimeUsed += t.cost;
  t.account.ledger.push({ type: 'build_charge', amount: -t.cost, buildId: id, bundleId: null });
  if (t.key) t.account.idempotency.set(t.key, { buildId: id, at });
  model.tokens.spent += t.cost;
  return build;
}

function expectReplay(model: ApiModel, a: Answer, buildId: string): void {
  expectOk(model, a, 200, REPLAY);
  if (a.json?.buildId !== buildId || a.json?.idempotent !== true) fail(REPLAY, `expected buildId ${buildId} with idempotent: true, ${seen(a)}`);
}

/** What the model predicts of one creation, checked against the answer, and applied; `at`: when the server may have made it. */
function judge(model: ApiModel, t: Attempt, a: Answer, at?: Span): void {
  model.settle(t.account);
  const replay = t.key ? model.replays(t.account, t.key) : false;
  if (replay) return expectReplay(model, a, replay.buildId);
  if (replay === undefined && a.ok && a.json?.idempotent === true) return expectReplay(model, a, t.account.idempotency.get(t.key as string)!.buildId);
  if (!t.target.own) return expectRefused(model, a, { status: 404, code: 'NOT_FOUND' }, {}, FOREIGN_TARGET);
  const pending = model.pending(t.account).reduce((n, b) => n + b.cost, 0);
  const { balance } = t.account;
  if (t.cost > balance + pending || (t.cost > balance && !a.ok)) {
    expectRefused(model, a, { status: 402, code: 'INSUFFICIENT_TOKENS' }, { status: 402, codes: ['INSUFFICIENT_TOKENS'] }, SHORT);
    const d = a.json?.details ?? {};
    if (d.shortfall !== d.required - d.available || d.required <= d.available) fail(SHORT, seen(a));
    if ((model.strict || t.cost === 1) && d.required !== t.cost) fail(SHORT, `required is the cost, ${t.cost}: ${seen(a)}`);
    if (!model.learnRefunds(t.account, d.available - balance)) fail(SHORT, `available is the balance (the model: ${balance}${pending ? ` plus up to ${pending} refunded` : ''}): ${seen(a)}`);
    return;
  }
  expectOk(model, a, 202, CREATE);
  created(model, t, a, at);
}

function attempt(model: ApiModel, account: ModelAccount, targetN: number, foreign: boolean, choice: KeyChoice, spec: BuildSpec): Attempt | undefined {
  const owner = foreign ? model.other(account) : account;
  const targetId = owner && pick(owner.targets, targetN);
  if (!targetId) return undefined;
  let key: string | null = null;
  let body: Record<string, unknown> = {
    targetId, buildType: 'single', kind: spec.kind, objective: `Model sequence ${model.unique('o')}${spec.fail ? ` [fail:${spec.fail}]` : ''}`, researchPolicy: 'required',
  };
  if (choice.mode === 'fresh') key = model.unique('k');
  if (choice.mode === 'reuse') {
    const used = pick(account.buildKeys, choice.n);
    if (!used) return undefined;
    key = used.key;
    if (choice.sameBody) body = used.body;
    else body = { ...body, objective: `${String(used.body.objective).replace(/ \[fail:\w+\]$/, '')} (another body)` };
  }
  const failStage = /\[fail:(\w+)\]/.exec(String(body.objective))?.[1] ?? null;
  return { account, key, body, target: { id: String(body.targetId), own: account.targets.includes(String(body.targetId)) }, cost: ApiModel.cost(String(body.kind)), failStage };
}

/** Whether a real service's token budget allows what the attempt may charge. */
function affordable(model: ApiModel, t: Attempt): boolean {
  if (model.controlled) return true;
  const replay = t.key ? model.replays(t.account, t.key) : false;
  return replay !== false || model.tokens.spent + t.cost <= model.tokens.allowance;
}

export class CreateBuild implements ModelCommand {
  constructor(
    readonly account: string,
    readonly target: number,
    readonly foreign: boolean,
    readonly choice: KeyChoice,
    readonly spec: BuildSpec,
    readonly via: Via,
  ) {}

  check(model: ApiModel): boolean {
    const t = attempt(model, model.account(this.account), this.target, this.foreign, this.choice, this.spec);
    return t !== undefined && affordable(model, t);
  }

  async run(model: ApiModel, world: World): Promise<void> {
    const t = attempt(model, model.account(this.account), this.target, this.foreign, this.choice, this.spec) as Attempt;
    if (t.key) t.account.buildKeys.push({ key: t.key, body: t.body });
    judge(model, t, await send(world, model, t, this.via));
  }

  toString(): string {
    const key = this.choice.mode === 'reuse' ? `reuse key #${this.choice.n} ${this.choice.sameBody ? 'same body' : 'another body'}` : `${this.choice.mode} key`;
    return `createBuild(${this.account}, ${this.foreign ? 'other account\'s' : 'own'} target #${this.target}, ${key}, ${this.spec.kind}${this.spec.fail ? ` [fail:${this.spec.fail}]` : ''}${this.via === 'mcp' ? ', over MCP' : ''})`;
  }
}

export class ConcurrentFirsts implements ModelCommand {
  constructor(
    readonly account: string,
    readonly target: number,
    readonly copies: number,
  ) {}

  check(model: ApiModel): boolean {
    const t = attempt(model, model.account(this.account), this.target, false, { mode: 'fresh' }, { kind: 'blog' });
    return t !== undefined && affordable(model, t);
  }

  async run(model: ApiModel, world: World): Promise<void> {
    const t = attempt(model, model.account(this.account), this.target, false, { mode: 'fresh' }, { kind: 'blog' }) as Attempt;
    t.account.buildKeys.push({ key: t.key as string, body: t.body });
    // Each answer with the accounts' times it may have been made at (Answer.within): calls the
    // rate limit held back are made again once the clocks have moved, so the creation may be
    // older or newer than the last answer.
    const arrived: Answer[] = [];
    const call = async () => {
      const a = await send(world, model, t, 'rest');
      arrived.push(a);
      return a;
    };
    await world.parallel(Array.from({ length: this.copies }, () => call), [keyOf(model, t.account, 'readWrite') as string]);
    const replay = (a: Answer) => a.ok && a.json?.idempotent === true;
    const firsts = arrived.filter((a) => a.ok && !replay(a));
    if (firsts.length > 1) fail(CONCURRENT, `${firsts.length} creations: ${firsts.map((a) => a.json?.buildId).join(', ')}`);
    // The spec does not say what a call answers while the first one with its key is in flight: the
    // documented level lets it be refused as a conflict (as payment APIs do); openapi.yaml has no such status.
    const inFlight = (a: Answer) => !model.strict && !a.ok && a.status === 409;
    // Judged in the order they were answered, each replay after the creation: a call the rate limit
    // held back is made again a window later, when a failed build's refund may have made a refusal
    // that came first a creation.
    const judged = arrived.filter((a) => !inFlight(a));
    const at = firsts[0] ? judged.indexOf(firsts[0]) : judged.length;
    const before = judged.slice(0, at);
    const ordered = [...before.filter((a) => !replay(a)), ...judged.slice(at, at + 1), ...before.filter(replay), ...judged.slice(at + 1)];
    for (const a of ordered) judge(model, t, a, a.within);
  }

  toString(): string {
    return `${this.copies} × createBuild(${this.account}, own target #${this.target}, one fresh key) at once`;
  }
}

export class GetBuild implements ModelCommand {
  constructor(
    readonly account: string,
    readonly build: number,
    readonly as: As,
    readonly via: Via,
  ) {}

  check(model: ApiModel): boolean {
    const account = model.account(this.account);
    return account.builds.length > 0 && keyOf(model, account, this.as) !== undefined;
  }

  async run(model: ApiModel, world: World): Promise<void> {
    const account = model.account(this.account);
    const build = pick(account.builds, this.build) as ModelBuild;
    const key = keyOf(model, account, this.as) as string;
    const a = this.via === 'mcp' ? await world.mcp(key, 'getBuild', { buildId: build.id }) : await world.rest('getBuild', { key, path: { buildId: build.id } });
    const refusal = refusalFor(this.as, 'svc:read');
    if (refusal) return expectRoleRefusal(model, a, refusal);
    expectOk(model, a, 200, STATES);
    checkBuild(model, account, build, a);
  }

  toString(): string {
    return `getBuild(${this.account}'s build #${this.build}, as ${this.as}${this.via === 'mcp' ? ', over MCP' : ''})`;
  }
}

function checkBuild(model: ApiModel, account: ModelAccount, build: ModelBuild, a: Answer): void {
  model.settle(account);
  const b = a.json?.build ?? {};
  const deliverables = a.json?.deliverables;
  const where = `build ${build.id}: ${seen(a)}`;
  const status = statusIndex(String(b.status));
  if (status === undefined) fail(STATES, where);
  const before = build.seen;
  if (before === 'failed' && status !== 'failed') fail(STATES, `it was failed before; ${where}`);
  if (before === STATUS_COMPLETED && status !== STATUS_COMPLETED) fail(STATES, `it was completed before; ${where}`);
  if (typeof before === 'number' && typeof status === 'number' && status < before) fail(STATES, `it was ${before} steps along before; ${where}`);
  if (model.strict) {
    const fields = { id: b.id, targetId: b.targetId, kind: b.kind, cost: b.cost, idempotencyKey: b.idempotencyKey };
    const expected = { id: build.id, targetId: build.targetId, kind: build.kind, cost: build.cost, idempotencyKey: build.idempotencyKey };
    if (JSON.stringify(fields) !== JSON.stringify(expected)) fail(FIELDS, `expected ${JSON.stringify(expected)}, got ${JSON.stringify(fields)}`);
  }
  if (status === STATUS_COMPLETED && !(Array.isArray(deliverables) && deliverables.length > 0)) fail(DELIVERABLES, where);
  if (model.strict && status !== STATUS_COMPLETED && Array.isArray(deliverables) && deliverables.length > 0) fail(DELIVERABLES, where);
  const elapsed = model.since(build.createdAt);
  if (build.failStage) {
    const limit = STAGES.indexOf(build.failStage as (typeof STAGES)[number]) + 1;
    if (status === STATUS_COMPLETED || (typeof status === 'number' && status > limit)) fail(FAILURE, `it should fail in ${build.failStage}; ${where}`);
    if (status === 'failed') {
      if (model.strict && (b.failure?.stage !== build.failStage || b.failure?.refundedTokens !== build.cost)) fail(FAILURE, `expected failure { stage: ${build.failStage}, refundedTokens: ${build.cost} }; ${where}`);
      if (model.strict) model.bookRefund(account, build);
    }
  } else if (status === 'failed') {
    // Only the simulator promises that a build without a failure input completes.
    if (model.controlled) fail(STATES, `a build without a [fail:<stage>] objective failed; ${where}`);
    build.failStage = String(b.failure?.stage ?? 'merging');
    build.refund = 'pending';
  }
  if (model.controlled && elapsed >= TERMINAL_AFTER_MS && status !== (build.failStage ? 'failed' : STATUS_COMPLETED)) fail(ENDS, where);
  build.seen = status;
}
