/**
 * The rules a client of the service is judged by: each with a stable id, the sentence of the
 * service's specification it comes from, and the judgement it takes (thresholds) stated once
 * here, so the report, the docs and the tests say the same.
 */
export const RULE_IDS = [
  'poll-too-fast',
  'poll-after-end',
  'retry-before-reset',
  'create-without-idempotency-key',
  'same-body-new-key',
  'idempotency-key-reused',
  'retry-after-402',
  'retry-after-auth-error',
  'mcp-task-poll-too-fast',
  'mcp-tool-retry-before-reset',
] as const;

export type RuleId = (typeof RULE_IDS)[number];

/** Each rule's bit, so that the rules switched off are one number and checking one is an AND. */
export const RULE_BITS: Readonly<Record<RuleId, number>> = Object.fromEntries(RULE_IDS.map((rule, i) => [rule, 1 << i])) as Record<RuleId, number>;

export function ruleBits(rules: Iterable<RuleId>): number {
  let bits = 0;
  for (const rule of rules) bits |= RULE_BITS[rule];
  return bits;
}

export interface RuleSource {
  /** The section of the specification the sentence is in. */
  section: string;
  text: string;
}

export interface Rule {
  id: RuleId;
  title: string;
  source: RuleSource;
  /** The judgement the rule takes, in words, with its numbers. */
  threshold: string;
  advice: string;
}

/** Reads of a running build closer together than this (both clocks) are too fast: a third of the suggested 30 s. */
export const POLL_MIN_GAP_MS = 10_000;
/** After a build was seen ended, a further read within this of the previous one means polling went on. */
export const AFTER_END_WINDOW_MS = 5 * 60_000;
/** The same body created again with another key within this is a retry that will be charged twice. */
export const DUPLICATE_WINDOW_MS = 10 * 60_000;
/** Two creations this close on both clocks were sent together (concurrent), not one after the other. */
export const CONCURRENT_MS = 1_000;
/** The spec's idempotency window: a key reused within it replays, whatever the body. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 3_600_000;
/** A request refused with 401 or 403 and sent again as it was within this is a retry (later, a new attempt). */
export const AUTH_RETRY_WINDOW_MS = 10 * 60_000;
/** A task polled sooner than this share of its `pollInterval` is polled too fast. */
export const TASK_POLL_SHARE = 0.5;

const LIMITS_429: RuleSource = {
  section: 'Limits',
  text: 'When a call is rejected with 429, the client may wait until the reset time, or use exponential backoff (1 s, 2 s, 4 s, 8 s and so on), then retry.',
};
const POLLING: RuleSource = {
  section: 'Events',
  text: 'The only way shown to learn that a build has ended is polling `GET /api/v1/builds/:id`, with an interval of 30 seconds suggested, until `build.status` is `completed` or `failed`.',
};
const IDEMPOTENCY: RuleSource = {
  section: 'Endpoints, rule 1',
  text: '`Idempotency-Key` (request header, string) is sent with `POST /api/v1/builds`. […] Good keys are a date plus sequence, a client plus cadence, or a UUID generated once per logical operation.',
};
const RETRY_429 = 'a request repeated (same method, path and body, same credential) sooner than the 429\'s X-RateLimit-Reset, its Retry-After and the backoff step the spec allows (1 s after a first 429, 2 s after a second in a row, then 4 s, 8 s …), whichever is soonest';

export const RULES: Readonly<Record<RuleId, Rule>> = {
  'poll-too-fast': {
    id: 'poll-too-fast',
    title: 'A running build polled much faster than every 30 seconds',
    source: POLLING,
    threshold: `a read of a running build less than ${POLL_MIN_GAP_MS / 1000} s after the previous read of it, from the second such read in a row (one early read, e.g. right after another, is allowed)`,
    advice: 'Wait about 30 seconds between reads of a build (or the task\'s pollInterval over MCP).',
  },
  'poll-after-end': {
    id: 'poll-after-end',
    title: 'A build polled again after it answered completed or failed',
    source: POLLING,
    threshold: `after a read answered completed or failed, each further read of that build within ${AFTER_END_WINDOW_MS / 60_000} minutes of the previous one, from the second on (one more read, e.g. for its deliverables, is allowed)`,
    advice: 'Stop polling a build once its status is completed or failed.',
  },
  'retry-before-reset': {
    id: 'retry-before-reset',
    title: 'A request retried after a 429 before the rate limit allowed',
    source: LIMITS_429,
    threshold: RETRY_429,
    advice: 'On 429, wait until X-RateLimit-Reset (or Retry-After), or back off 1, 2, 4, 8 s, before sending the request again.',
  },
  'create-without-idempotency-key': {
    id: 'create-without-idempotency-key',
    title: 'A build created without an Idempotency-Key',
    source: IDEMPOTENCY,
    threshold: 'every POST /api/v1/builds (or createBuild tool call) without the header',
    advice: 'Send an Idempotency-Key, made once per logical operation, with every build creation, so a retry is not charged twice.',
  },
  'same-body-new-key': {
    id: 'same-body-new-key',
    title: 'The same build created twice with different Idempotency-Keys',
    source: IDEMPOTENCY,
    threshold: `the same body created again with another key within ${DUPLICATE_WINDOW_MS / 60_000} minutes, while the first build was never read; creations less than ${CONCURRENT_MS / 1000} s apart on both clocks are taken as concurrent, distinct builds`,
    advice: 'Make the key once per logical operation and send the same key again when retrying a creation whose answer was lost.',
  },
  'idempotency-key-reused': {
    id: 'idempotency-key-reused',
    title: 'An Idempotency-Key reused with a different body',
    source: {
      section: 'Endpoints, rule 2',
      text: 'When the same key is reused within the idempotency window of 24 hours, the service returns the existing build with `idempotent: true` and creates no new build and charges no tokens.',
    },
    threshold: `a key sent within ${IDEMPOTENCY_WINDOW_MS / 3_600_000} hours of its first use with another body: the service answers the first build, not the one asked for`,
    advice: 'Make a new key for each new build; reuse a key only to retry the very same creation.',
  },
  'retry-after-402': {
    id: 'retry-after-402',
    title: 'A creation repeated after a 402 while the balance had not changed',
    source: { section: 'Errors', text: '402 | INSUFFICIENT_TOKENS | token balance lower than the build cost | buy tokens; the body carries `required`, `available`, `shortfall`' },
    threshold: 'the same creation body sent again after a 402 while the account\'s balance is what it was at the 402',
    advice: 'On 402, buy tokens (or pick a cheaper build) before creating again: a retry fails the same way.',
  },
  'retry-after-auth-error': {
    id: 'retry-after-auth-error',
    title: 'A request repeated after a 401 or 403 with the same credential',
    source: {
      section: 'Errors',
      text: '401 | INVALID_API_KEY | key malformed or revoked | check key format and revocation; 403 | SCOPE_REQUIRED | key lacks the scope the endpoint needs | use a key with the scope',
    },
    threshold: `the same request (method, path and body) sent again within ${AUTH_RETRY_WINDOW_MS / 60_000} minutes with the credential it was refused for: revoked keys (401) and keys lacking a scope (403) are refused every time`,
    advice: 'On 401 fix or replace the key, on 403 use a key with the scope; do not retry with the same one.',
  },
  'mcp-task-poll-too-fast': {
    id: 'mcp-task-poll-too-fast',
    title: 'An MCP task polled (tasks/get) faster than its pollInterval',
    source: POLLING,
    threshold: `a tasks/get less than ${TASK_POLL_SHARE * 100} % of the pollInterval the previous answer gave after it, from the second such read in a row`,
    advice: 'Wait the pollInterval the task answered between tasks/get calls.',
  },
  'mcp-tool-retry-before-reset': {
    id: 'mcp-tool-retry-before-reset',
    title: 'An MCP tool call retried after a rate-limit error before the reset',
    source: LIMITS_429,
    threshold: RETRY_429.replace('a request repeated (same method, path and body, same credential)', 'a tool call repeated (same tool and arguments, same credential)').replace("the 429's X-RateLimit-Reset, its Retry-After", 'the error\'s details.retryAfterSeconds'),
    advice: 'On a RATE_LIMITED result, wait details.retryAfterSeconds (or back off 1, 2, 4, 8 s) before calling the tool again.',
  },
};

export function isRuleId(value: string): value is RuleId {
  return (RULE_IDS as readonly string[]).includes(value);
}
