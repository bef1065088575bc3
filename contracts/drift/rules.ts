/**
 * What a replay holds a target's answers to, one rule per way an answer can drift from the
 * recorded one. Only what can be expected to match is compared: statuses, error codes, the
 * set and types of fields, enumerated values, documented headers, the order of a build's
 * states. Generated text, ids, timestamps, counts and amounts never are.
 */
export const DRIFT_RULES = {
  status: 'the HTTP status of the answer',
  errorCode: 'the error code of an error answer (`code` of { error, code, details }, or of an MCP tool error)',
  fieldMissing: 'a field the recorded answer has is missing',
  fieldAdded: 'a field the recorded answer does not have is present',
  fieldType: 'a field has another JSON type (string, number, boolean, object, array)',
  enumValue: 'a field whose values the contract enumerates has another value',
  headerMissing: 'a documented header the recorded answer carries is missing',
  headerAdded: 'a documented header the recorded answer does not carry is present',
  headerValue: 'a documented header whose value is fixed (X-RateLimit-Limit) has another value',
  contentType: 'the media type of the answer',
  stateSkipped: 'a build state the recording saw was never seen',
  stateOrder: 'build states came in another order than the recording\'s, or left a final state',
  stateFinal: 'a build ended in another state than the recording\'s',
  noAnswer: 'the target gave no answer',
} as const;

export type DriftRule = keyof typeof DRIFT_RULES;

export interface Drift {
  /** The call's place in the recording (1 = its first entry). */
  call: number;
  method: string;
  /** The recorded URL's path and query (secrets redacted as recorded). */
  url: string;
  operationId?: string;
  rule: DriftRule;
  /** The JSON path (`build.status`, `data[].id`) or header name the difference is in. */
  field?: string;
  recorded: unknown;
  replayed: unknown;
  /** One line: what differs and why it matters. */
  explanation: string;
  /** Set when an accept file lists this difference: the reason given there. */
  accepted?: string;
}

/** The parts of a drift that say where and what, not how: what an accept file matches on. */
export type DriftKey = Pick<Drift, 'rule' | 'operationId' | 'field' | 'recorded' | 'replayed' | 'method' | 'url'>;
