import { ApiError } from '../errors/api-error.js';
import type { ErrorCode } from '../errors/error-codes.js';
import type { Operation } from '../contract/operations.js';
import { KEY_LIMITS } from '../limits/rate-limiter.js';

/** What a rule (or a Prefer header) asks to answer instead of the operation. */
export interface InjectedResponse {
  status: number;
  /** One of the codes the contract documents for this status; default: the first. */
  code?: string;
  message?: string;
  retryAfterSeconds?: number;
}

/**
 * Every error status the service contract documents, with the codes it allows and a body
 * whose details have the documented shape: an injected error is one the client could really
 * get, so its handling code can be tested, and a response validator finds nothing wrong.
 */
const CODES_BY_STATUS: Readonly<Record<number, readonly ErrorCode[]>> = {
  400: ['VALIDATION_ERROR'],
  401: ['UNAUTHORIZED', 'INVALID_API_KEY'],
  402: ['INSUFFICIENT_TOKENS'],
  403: ['SCOPE_REQUIRED'],
  404: ['NOT_FOUND'],
  409: ['CONFLICT'],
  413: ['PAYLOAD_TOO_LARGE'],
  415: ['UNSUPPORTED_MEDIA_TYPE'],
  429: ['RATE_LIMITED'],
  500: ['INTERNAL_ERROR'],
  503: ['SERVICE_UNAVAILABLE'],
};

export const INJECTABLE_STATUSES = Object.keys(CODES_BY_STATUS).map(Number);

/** Why `response` cannot be injected into `operations` (each must document it), or undefined when it can. */
export function injectionProblem(response: InjectedResponse, operations: Operation[]): { path: string; message: string } | undefined {
  const codes = CODES_BY_STATUS[response.status];
  if (!codes) return { path: 'status', message: `the simulator injects the error statuses of the contract: ${INJECTABLE_STATUSES.join(', ')}` };
  if (response.code !== undefined && !codes.includes(response.code as ErrorCode)) {
    return { path: 'code', message: `${response.status} answers ${codes.join(' or ')}, not ${response.code}` };
  }
  const undocumented = operations.filter((o) => !o.statuses.includes(response.status));
  if (undocumented.length > 0) {
    return { path: 'status', message: `${response.status} is not documented for ${undocumented.slice(0, 3).map((o) => o.operationId).join(', ')}` };
  }
  return undefined;
}

/** The error an injected status answers, with the code, details and headers the contract gives it. */
export function injectedError(response: InjectedResponse, operation: Operation, now: number): ApiError {
  const retryAfter = response.retryAfterSeconds ?? 1;
  const code = (response.code ?? CODES_BY_STATUS[response.status]?.[0] ?? 'INTERNAL_ERROR') as ErrorCode;
  const say = (fallback: string) => response.message ?? fallback;
  switch (code) {
    case 'VALIDATION_ERROR':
      return new ApiError(400, code, say('The request does not match the documented shape (injected).'), { fields: [{ path: 'body', message: say('is refused by an injected fault') }] });
    case 'UNAUTHORIZED':
    case 'INVALID_API_KEY':
      return new ApiError(401, code, say(code === 'UNAUTHORIZED' ? 'Authentication required (injected).' : 'The API key is not valid (injected).'), {}, { 'www-authenticate': 'Bearer realm="content-service"' });
    case 'INSUFFICIENT_TOKENS':
      return new ApiError(402, code, say('Not enough tokens (injected).'), { required: 1, available: 0, shortfall: 1 });
    case 'SCOPE_REQUIRED':
      return new ApiError(403, code, say(`This key lacks ${operation.scope ?? 'svc:read'} (injected).`), { requiredScope: operation.scope ?? 'svc:read', grantedScopes: [] });
    case 'RATE_LIMITED': {
      const resetAt = Math.ceil(now / 1000) + retryAfter;
      return new ApiError(429, code, say(`Rate limit exceeded; retry in ${retryAfter} s.`), { bucket: 'key', limit: KEY_LIMITS.default, retryAfterSeconds: retryAfter }, {
        'retry-after': String(retryAfter), 'x-ratelimit-limit': String(KEY_LIMITS.default), 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(resetAt),
      });
    }
    case 'SERVICE_UNAVAILABLE':
      return new ApiError(503, code, say(`The service is unavailable; retry in ${retryAfter} s.`), { retryAfterSeconds: retryAfter }, { 'retry-after': String(retryAfter) });
    case 'NOT_FOUND':
      return new ApiError(404, code, say('No such resource (injected).'));
    case 'CONFLICT':
      return new ApiError(409, code, say('The request conflicts with existing state (injected).'));
    case 'PAYLOAD_TOO_LARGE':
      return new ApiError(413, code, say('The request body is too large (injected).'));
    case 'UNSUPPORTED_MEDIA_TYPE':
      return new ApiError(415, code, say('The request body is not JSON (injected).'));
    default:
      return new ApiError(500, 'INTERNAL_ERROR', say('An injected fault.'));
  }
}
