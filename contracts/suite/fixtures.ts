import type { Role } from './config.js';
import { observeBuild, type BuildRun } from './build-observer.js';
import type { Reply } from './http-client.js';
import { ContractFailure, SkipSignal, expectThat } from '../shared/outcomes.js';
import type { SessionView as Session } from './session-view.js';

export interface Balance {
  balance: number;
  lifetimePurchased: number;
  lifetimeUsed: number;
}

export interface CreatedTarget {
  id: string;
  slug: string;
  name: string;
  reply: Reply;
}

export interface BlogBuild {
  buildId: string;
  idempotencyKey: string;
  body: Record<string, unknown>;
  created: Reply;
  createdAt: number;
  before: Balance;
  after: Balance;
  /** Strict level: the newest builds and transactions before and after the creation. */
  buildsBefore?: string[];
  buildsAfter?: string[];
  transactionsBefore?: string[];
  transactionsAfter?: any[];
}

export interface BlogReplay {
  reply: Reply;
  after: Balance;
  buildsAfter?: string[];
  transactionsAfter?: any[];
}

/** Reads the balance (Endpoints: GET /api/v1/tokens/balance). */
export async function readBalance(s: Session, as: Role = 'readWrite'): Promise<Balance> {
  const reply = await s.client.op('getTokenBalance', {}, { as });
  expectThat(reply.status >= 200 && reply.status < 300, `Endpoints: GET /api/v1/tokens/balance answers the balance: got ${reply.status}`);
  return reply.json as Balance;
}

/** Creates a target named for this run (Endpoints: POST /api/v1/targets). */
export async function createTarget(s: Session, label: string, as: Role = 'readWrite'): Promise<CreatedTarget> {
  const { slug, name } = s.newTargetName(label);
  const reply = await s.client.op('createTarget', {}, {
    as,
    body: { name, slug, description: 'Created by the contract suite', brandKit: { voice: 'expert', tone: 'warm' } },
  });
  expectThat(reply.status >= 200 && reply.status < 300, `Endpoints: POST /api/v1/targets creates a target: got ${reply.status} ${reply.text.slice(0, 200)}`);
  return { id: reply.json.id, slug, name, reply };
}

/** The newest ids of a list operation (openapi.yaml, inferred: `{ data, nextCursor }`, newest first). */
export async function newestIds(s: Session, operationId: string, limit = 100): Promise<any[]> {
  const reply = await s.client.op(operationId, {}, { query: { limit: String(limit) } });
  expectThat(reply.status === 200 && Array.isArray(reply.json?.data), `openapi.yaml: ${operationId} answers 200 with { data }: got ${reply.status}`);
  return reply.json.data;
}

/** A standard blog build with research (Endpoints, Limits: 1 token). */
export function blogBody(s: Session, targetId: string, objective = `A guide to brewing coffee at home (${s.config.runId})`): Record<string, unknown> {
  return { targetId, buildType: 'single', kind: 'blog', objective, researchPolicy: 'required' };
}

/**
 * What several checks share, made once on first use: a target, one blog build, its replay,
 * its run to the end, its deliverable. A prerequisite that broke a rule fails every check
 * that needs it, with the rule it broke.
 */
export class Fixtures {
  private readonly made = new Map<string, Promise<unknown>>();

  constructor(private readonly s: Session) {}

  target(): Promise<CreatedTarget> {
    return this.once('a target of this run', () => createTarget(this.s, 'main'));
  }

  blogBuild(): Promise<BlogBuild> {
    return this.once('a standard blog build', async () => {
      const s = this.s;
      s.spend(1, 'a standard blog build');
      const target = await this.target();
      // Leave room in the window to poll the build closely without waiting for a reset.
      await s.client.ensureWindow('readWrite', 'getBuild', 50);
      await s.client.ensureWindow('readWrite', 'createBuild', 2);
      const before = await readBalance(s);
      const buildsBefore = s.strict ? (await newestIds(s, 'listBuilds')).map((b) => b.id) : undefined;
      const transactionsBefore = s.strict ? (await newestIds(s, 'listTokenTransactions')).map((t) => t.id) : undefined;
      const idempotencyKey = `${s.config.runId}-blog`;
      const body = blogBody(s, target.id);
      const created = await s.client.op('createBuild', {}, { body, headers: { 'Idempotency-Key': idempotencyKey } });
      const createdAt = s.time.now();
      expectThat(created.status >= 200 && created.status < 300, `Endpoints: POST /api/v1/builds creates a build: got ${created.status} ${created.text.slice(0, 200)}`);
      const after = await readBalance(s);
      s.tokensSpent += Math.max(0, before.balance - after.balance) - 1;
      const buildsAfter = s.strict ? (await newestIds(s, 'listBuilds')).map((b) => b.id) : undefined;
      const transactionsAfter = s.strict ? await newestIds(s, 'listTokenTransactions') : undefined;
      return { buildId: created.json.buildId, idempotencyKey, body, created, createdAt, before, after, buildsBefore, buildsAfter, transactionsBefore, transactionsAfter };
    });
  }

  blogReplay(): Promise<BlogReplay> {
    return this.once('a replay of the blog build', async () => {
      const s = this.s;
      const build = await this.blogBuild();
      const reply = await s.client.op('createBuild', {}, { body: build.body, headers: { 'Idempotency-Key': build.idempotencyKey } });
      const after = await readBalance(s);
      const buildsAfter = s.strict ? (await newestIds(s, 'listBuilds')).map((b) => b.id) : undefined;
      const transactionsAfter = s.strict ? await newestIds(s, 'listTokenTransactions') : undefined;
      return { reply, after, buildsAfter, transactionsAfter };
    });
  }

  blogRun(): Promise<BuildRun> {
    return this.once('the blog build polled to its end', async () => {
      this.s.requireWait();
      const build = await this.blogBuild();
      return observeBuild(this.s, build.buildId, build.createdAt, this.s.fineStepMs);
    });
  }

  /** The blog build's deliverable in full (Endpoints: GET /api/v1/deliverables/:id). */
  deliverable(): Promise<{ id: string; reply: Reply }> {
    return this.once('the blog build deliverable', async () => {
      const run = await this.blogRun();
      if (run.final.status !== 'completed') throw new SkipSignal(`the blog build ended ${run.final.status}, so it has no deliverable`);
      const id = run.final.deliverableIds[0] as string;
      const reply = await this.s.client.op('getDeliverable', { deliverableId: id });
      expectThat(reply.status >= 200 && reply.status < 300, `Endpoints: GET /api/v1/deliverables/:id answers the deliverable of a completed build: got ${reply.status}`);
      return { id, reply };
    });
  }

  /** Something several checks of one capability share (a share link, an image, a chat), made once on first use. */
  shared<T>(name: string, make: () => Promise<T>): Promise<T> {
    return this.once(name, make);
  }

  private once<T>(name: string, make: () => Promise<T>): Promise<T> {
    let made = this.made.get(name) as Promise<T> | undefined;
    if (!made) {
      made = make();
      this.made.set(name, made);
      made.catch(() => {}); // reported by the check that asked first, and by each later one
    } else {
      made = made.catch((error: unknown) => {
        if (error instanceof SkipSignal) throw error;
        throw new ContractFailure(`prerequisite "${name}" failed:\n${(error as Error).message}`);
      });
    }
    return made;
  }
}
