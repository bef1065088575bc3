import type { Check } from '../check.js';
import type { Role } from '../config.js';
import type { Reply } from '../http-client.js';
import { ContractFailure, expectEqual, expectThat } from '../../shared/outcomes.js';
import { RULES } from '../../shared/response-rules.js';
import type { Session } from '../session.js';
import { expectError, expectSuccess } from './expect.js';

const RATE_LIMITED = 'Errors, Limits: the call after the last one a window allows gets 429 RATE_LIMITED, with the rate-limit headers and a Retry-After consistent with X-RateLimit-Reset';

function header(reply: Reply, name: string): number {
  return Number(reply.headers[name]);
}

/** Calls until the window says no request is left, then once more: that call must be refused. */
async function exhaust(s: Session, call: () => Promise<Reply>, limit: number, what: string): Promise<Reply> {
  for (let i = 0; i <= limit; i++) {
    const reply = await call();
    if (reply.status === 429) throw new ContractFailure(`${RATE_LIMITED}: ${what}: 429 although the previous response left requests in the window`);
    expectSuccess(reply, `${what}: a call within the limit`);
    if (header(reply, 'x-ratelimit-remaining') === 0) {
      expectEqual(header(reply, 'x-ratelimit-limit'), limit, `${RULES.limitClass}: ${what}: the limit in force when the window is used up`);
      return refusedAfter(s, call, limit, what);
    }
  }
  throw new ContractFailure(`${RATE_LIMITED}: ${what}: ${limit + 1} calls in a row and X-RateLimit-Remaining never reached 0`);
}

async function refusedAfter(s: Session, call: () => Promise<Reply>, limit: number, what: string): Promise<Reply> {
  const refused = await call();
  expectError(refused, 429, 'RATE_LIMITED', `${RATE_LIMITED}: ${what}`);
  expectEqual([header(refused, 'x-ratelimit-limit'), header(refused, 'x-ratelimit-remaining')], [limit, 0], `${RATE_LIMITED}: ${what}: Limit and Remaining of the 429`);
  const reset = header(refused, 'x-ratelimit-reset');
  const retryAfter = refused.headers['retry-after'];
  if (retryAfter !== undefined || s.strict) {
    expectThat(/^\d+$/.test(retryAfter ?? ''), `${RATE_LIMITED}: ${what}: Retry-After is a number of seconds: got ${JSON.stringify(retryAfter ?? null)}`);
    const untilReset = (reset * 1000 - s.time.now()) / 1000;
    expectThat(Math.abs(Number(retryAfter) - untilReset) <= 1 + s.time.toleranceMs / 1000, `${RATE_LIMITED}: ${what}: Retry-After ${retryAfter} s, but the window resets in ${untilReset.toFixed(1)} s`);
  }
  // Limits: "the client may wait until the reset time ... then retry".
  await s.time.until(reset);
  const again = await call();
  expectSuccess(again, `Limits: after X-RateLimit-Reset the window opens again (${what})`);
  return refused;
}

export function rateLimitChecks(): Check[] {
  return [
    {
      id: 'limits.headers',
      title: `${RULES.rateHeaders}; ${RULES.resetFuture}`,
      level: 'documented',
      covers: ['getTokenBalance'],
      requests: 1,
      // Every response is held to these rules; this check makes it visible on its own.
      run: async (s) => expectSuccess(await s.client.op('getTokenBalance'), 'Endpoints: the balance'),
    },
    {
      id: 'limits.remaining-falls',
      title: RULES.remainingFalls,
      level: 'documented',
      covers: ['getTokenBalance'],
      requests: 8,
      run: async (s) => {
        await s.client.ensureWindow('readWrite', 'getTokenBalance', 4);
        const readings = [];
        for (let i = 0; i < 3; i++) readings.push(await s.client.op('getTokenBalance'));
        const remaining = readings.map((r) => header(r, 'x-ratelimit-remaining'));
        const resets = new Set(readings.map((r) => header(r, 'x-ratelimit-reset')));
        if (resets.size > 1) s.skipBecause('the window turned during the three calls');
        const first = remaining[0] as number;
        expectEqual(remaining, [first, first - 1, first - 2], `${RULES.remainingFalls}: Remaining over three calls`);
      },
    },
    {
      id: 'limits.exhaust-default',
      title: `${RATE_LIMITED} — 60 a minute per key on most endpoints`,
      level: 'documented',
      groups: ['exhaust'],
      covers: ['getTokenBalance'],
      requests: 64,
      run: async (s) => {
        await s.client.freshWindow(); // the key's window, not the user's, is then the tighter
        await exhaust(s, () => s.client.op('getTokenBalance', {}, { provoke429: true }), 60, 'GET /api/v1/tokens/balance');
      },
    },
    {
      id: 'limits.exhaust-build-create',
      title: `${RATE_LIMITED} — 10 a minute per key on POST /api/v1/builds (idempotent replays, which charge nothing)`,
      level: 'documented',
      groups: ['exhaust', 'spend'],
      covers: ['createBuild'],
      requests: 20,
      run: async (s) => {
        const build = await s.fixtures.blogBuild();
        const replay = () => s.client.op('createBuild', {}, { body: build.body, headers: { 'Idempotency-Key': build.idempotencyKey }, provoke429: true });
        await s.client.freshWindow();
        const refused = await exhaust(s, replay, 10, 'POST /api/v1/builds');
        if (s.strict) expectEqual(refused.json.details?.bucket, 'key-build-create', 'openapi.yaml: details.bucket of the 429');
      },
    },
    {
      id: 'limits.exhaust-generation',
      title: `${RATE_LIMITED} — 20 a minute per key on the generation routes (suggestions, images)`,
      level: 'strict',
      groups: ['exhaust'],
      covers: ['extractKeywords'],
      requests: 25,
      run: async (s) => {
        await s.client.freshWindow();
        const extract = () => s.client.op('extractKeywords', {}, { body: { text: 'Cold brew at home, cold brew on the go.', max: 1 }, provoke429: true });
        const refused = await exhaust(s, extract, 20, 'POST /api/v1/suggestions/keywords');
        expectEqual(refused.json.details?.bucket, 'key-generation', 'openapi.yaml: details.bucket of the 429');
      },
    },
    {
      id: 'limits.exhaust-user',
      title: `${RATE_LIMITED} — 120 a minute per user, all keys together`,
      level: 'documented',
      groups: ['exhaust', 'spend'],
      roles: ['readOnly'],
      covers: ['getTokenBalance'],
      requests: 130,
      run: async (s) => {
        const build = await s.fixtures.blogBuild();
        await s.client.freshWindow();
        const as = (role: Role) => () => s.client.op('getTokenBalance', {}, { as: role, provoke429: true });
        // 10 build replays and 60 reads of one key, then reads of another: its own window
        // still has room when the user's 120 are used up.
        for (let i = 0; i < 10; i++) {
          expectSuccess(await s.client.op('createBuild', {}, { body: build.body, headers: { 'Idempotency-Key': build.idempotencyKey }, provoke429: true }), 'Limits: a replay within the limits');
        }
        for (let i = 0; i < 60; i++) expectSuccess(await as('readWrite')(), 'Limits: a read within the limits');
        const refused = await exhaust(s, as('readOnly'), 120, 'the user\'s requests');
        if (s.strict) expectEqual(refused.json.details?.bucket, 'user', 'openapi.yaml: details.bucket of the 429');
      },
    },
  ];
}
