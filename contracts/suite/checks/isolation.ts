import type { Check, Group } from '../check.js';
import type { Reply } from '../http-client.js';
import { pathParameters, type OperationInfo } from '../../shared/openapi-model.js';
import { ContractFailure, expectThat } from '../../shared/outcomes.js';
import type { Session } from '../session.js';
import { expectError, isSuccess } from './expect.js';
import { foreignTarget, ownedPathValues } from './owned-ids.js';

/** A valid body for each write on an existing resource: the answer then depends on whose it is, not on the body. */
export const WRITE_BODIES: Readonly<Record<string, (s: Session) => unknown>> = {
  updateTarget: () => ({ description: 'Changed by another account' }),
  deleteTarget: () => undefined,
  createLibraryItem: (s) => ({ type: 'glossary_term', name: `${s.config.runId} term`, content: 'A word and its meaning.' }),
  updateLibraryItem: () => ({ name: 'Changed by another account' }),
  deleteLibraryItem: () => undefined,
  createShare: () => ({}),
  revokeShare: () => undefined,
  createAudio: () => ({ voice: 'aria' }),
  postChatMessage: () => ({ content: 'Hello from another account' }),
  rotateApiKey: () => undefined,
  revokeApiKey: () => undefined,
};

const NEEDS_BUILD = new Set(['buildId', 'deliverableId', 'shareId', 'audioId']);

function groupsOf(op: OperationInfo): Group[] | undefined {
  return pathParameters(op).some((p) => NEEDS_BUILD.has(p.name)) ? ['spend', 'wait'] : undefined;
}

function isolationRule(op: OperationInfo): string {
  const what = op.method === 'GET' ? 'reads' : 'changes';
  return op.inferred
    ? `openapi.yaml: a key reaches only its own account: another account's key ${what} nothing of it and gets 404 NOT_FOUND — ${op.method} ${op.path} (${op.id})`
    : `Authentication, Errors: a key reaches only its own account: another account's key is refused (openapi.yaml, strict: 404 NOT_FOUND) — ${op.method} ${op.path} (${op.id})`;
}

/** Refused as another account's resource: strict 404 NOT_FOUND; documented, any 4xx (the spec gives no code). */
export function expectForeignRefused(s: Session, reply: Reply, rule: string): void {
  if (s.strict) return expectError(reply, 404, 'NOT_FOUND', rule);
  if (reply.status < 400 || reply.status >= 500) throw new ContractFailure(`${rule}: expected a 4xx refusal, got ${reply.status} ${reply.text.slice(0, 200)}`);
}

/**
 * Isolation between two accounts: for every operation on an existing resource, the second
 * account's key (the empty-balance key's account) presents the ids of the first's and is
 * refused as if they did not exist. Writes carry a valid body, so a server that looks the
 * resource up without its owner changes it and fails.
 */
export function isolationChecks(operations: readonly OperationInfo[]): Check[] {
  const checks: Check[] = [];
  for (const op of operations) {
    if (op.scope === null || pathParameters(op).length === 0) continue;
    const body = WRITE_BODIES[op.id];
    if (op.method !== 'GET' && !body) continue;
    const rule = isolationRule(op);
    checks.push({
      id: `isolation.${op.id}`,
      title: rule,
      level: op.inferred ? 'strict' : 'documented',
      roles: ['empty'],
      groups: groupsOf(op),
      covers: [op.id],
      requests: 4,
      run: async (s) => {
        const values = await ownedPathValues(s, op.path);
        const query = op.id === 'downloadDeliverable' ? { format: 'md' } : undefined;
        const reply = await s.client.op(op.id, values, { as: 'empty', query, body: body?.(s) });
        expectForeignRefused(s, reply, rule);
      },
    });
  }
  for (const op of operations) {
    if (op.method !== 'GET' || op.scope === null || pathParameters(op).length > 0 || !op.parameters.some((p) => p.name === 'limit')) continue;
    const rule = `openapi.yaml: a key lists only its own account's items: another account's list holds none of the first's — ${op.method} ${op.path} (${op.id})`;
    checks.push({
      id: `isolation.list.${op.id}`,
      title: rule,
      level: 'strict',
      roles: ['empty'],
      covers: [op.id],
      requests: 2,
      run: async (s) => {
        const own = await s.client.op(op.id, {}, { query: { limit: '100' } });
        const other = await s.client.op(op.id, {}, { as: 'empty', query: { limit: '100' } });
        expectThat(Array.isArray(own.json?.data) && Array.isArray(other.json?.data), `${rule}: both lists answer { data }: got ${own.status} and ${other.status}`);
        const mine = new Set((own.json.data as Array<{ id: string }>).map((item) => item.id));
        const leaked = (other.json.data as Array<{ id: string }>).filter((item) => mine.has(item.id)).map((item) => item.id);
        expectThat(leaked.length === 0, `${rule}: the second account's list holds ${leaked.length} of the first's: ${leaked.slice(0, 3).join(', ')}`);
      },
    });
  }
  checks.push(balanceIsolation(), idempotencyIsolation(), rateBucketIsolation());
  return checks;
}

const IDEMPOTENCY = 'Idempotency 2: an Idempotency-Key is the account\'s own: the same key from another account never answers the first account\'s build (openapi.yaml, strict: a new build, here 402 INSUFFICIENT_TOKENS)';
const BUCKET = 'Limits: rate-limit windows are per key and per user: another account\'s calls do not lower a key\'s X-RateLimit-Remaining';

const BALANCE = 'Endpoints, Authentication: the balance is the key\'s own account\'s: the second account (no tokens) reads 0, whatever the first has';

function balanceIsolation(): Check {
  return {
    id: 'isolation.balance',
    title: BALANCE,
    level: 'documented',
    roles: ['empty'],
    covers: ['getTokenBalance'],
    requests: 2,
    run: async (s) => {
      const own = await s.client.op('getTokenBalance');
      const other = await s.client.op('getTokenBalance', {}, { as: 'empty' });
      expectThat(other.json?.balance === 0, `${BALANCE}: the second account read ${JSON.stringify(other.json?.balance)} (the first reads ${JSON.stringify(own.json?.balance)})`);
    },
  };
}

function idempotencyIsolation(): Check {
  return {
    id: 'isolation.idempotency-key',
    title: IDEMPOTENCY,
    level: 'documented',
    roles: ['empty'],
    groups: ['spend'],
    covers: ['createBuild'],
    requests: 6,
    run: async (s) => {
      const build = await s.fixtures.blogBuild();
      const own = await foreignTarget(s);
      const reply = await s.client.op('createBuild', {}, { as: 'empty', body: { ...build.body, targetId: own.id }, headers: { 'Idempotency-Key': build.idempotencyKey } });
      const leaked = isSuccess(reply) && (reply.json?.buildId === build.buildId || reply.json?.idempotent === true);
      if (leaked) throw new ContractFailure(`${IDEMPOTENCY}: got ${reply.status} ${reply.text.slice(0, 200)} (the first account's build is ${build.buildId})`);
      if (s.strict) expectError(reply, 402, 'INSUFFICIENT_TOKENS', IDEMPOTENCY);
    },
  };
}

function rateBucketIsolation(): Check {
  return {
    id: 'isolation.rate-limit-bucket',
    title: BUCKET,
    level: 'documented',
    roles: ['empty'],
    covers: ['getTokenBalance'],
    requests: 24,
    run: async (s) => {
      // A reading that straddles a window's turn says nothing; a slow machine can meet one, so up to three are taken.
      for (let attempt = 0; attempt < 3; attempt++) {
        await s.client.ensureWindow('empty', 'getTokenBalance', 3);
        await s.client.ensureWindow('readWrite', 'getTokenBalance', 4);
        const before = await s.client.op('getTokenBalance', {}, { as: 'empty' });
        for (let i = 0; i < 3; i++) await s.client.op('getTokenBalance');
        const after = await s.client.op('getTokenBalance', {}, { as: 'empty' });
        if (before.headers['x-ratelimit-reset'] !== after.headers['x-ratelimit-reset']) continue;
        const fell = Number(before.headers['x-ratelimit-remaining']) - Number(after.headers['x-ratelimit-remaining']);
        expectThat(fell === 1, `${BUCKET}: the second account's Remaining fell by ${fell} over one call of its own and three of the first account's (expected 1)`);
        return;
      }
      s.skipBecause('the window turned between the readings three times');
    },
  };
}
