import { editJson, is, jsonOf, presentedKey, recordAccounts, withHeaders, withJson } from './tamper.js';
import { PATHS, errorCode, type Violation } from './violation.js';

/** Violations of the 401/403 matrix, of the error object and of the response schemas. */
export const AUTH_AND_ERROR_VIOLATIONS: Violation[] = [
  {
    id: 'wrong-error-code',
    description: 'a request without a key gets INVALID_API_KEY instead of UNAUTHORIZED',
    rule: 'a request without a key gets 401 UNAUTHORIZED',
    wrap: (h) => editJson(h, (_, res) => errorCode(res) === 'UNAUTHORIZED', (json) => ({ ...json, code: 'INVALID_API_KEY' })),
  },
  {
    id: 'malformed-key-unauthorized',
    description: 'a malformed key gets UNAUTHORIZED instead of INVALID_API_KEY',
    rule: 'a malformed key gets 401 INVALID_API_KEY',
    documented: true,
    wrap: (h) => editJson(h, (_, res) => res.status === 401 && jsonOf(res).details?.reason === 'malformed', (json) => ({ ...json, code: 'UNAUTHORIZED' })),
  },
  {
    id: 'revoked-key-accepted',
    description: 'a revoked key works like its account\'s read+write key',
    rule: 'a revoked key gets 401 INVALID_API_KEY',
    documented: true,
    wrap: (h) => {
      const accounts: Array<Record<string, string>> = [];
      const inner = recordAccounts(h, accounts);
      return (req) => {
        const keys = accounts.find((k) => k.revoked === presentedKey(req));
        return inner(keys ? { ...req, headers: { ...req.headers, authorization: `Bearer ${keys.readWrite}` } } : req);
      };
    },
  },
  {
    id: 'read-only-key-writes',
    description: 'a read-only key may write',
    rule: 'a key without svc:write gets 403 SCOPE_REQUIRED',
    documented: true,
    wrap: (h) => {
      const accounts: Array<Record<string, string>> = [];
      const inner = recordAccounts(h, accounts);
      return (req) => {
        const keys = accounts.find((k) => k.readOnly === presentedKey(req));
        return inner(keys && req.method !== 'GET' ? { ...req, headers: { ...req.headers, authorization: `Bearer ${keys.readWrite}` } } : req);
      };
    },
  },
  {
    id: 'write-only-key-reads',
    description: 'a write-only key may read',
    rule: 'a key without svc:read gets 403 SCOPE_REQUIRED',
    documented: true,
    wrap: (h) => {
      const accounts: Array<Record<string, string>> = [];
      const inner = recordAccounts(h, accounts);
      return (req) => {
        const keys = accounts.find((k) => k.writeOnly === presentedKey(req));
        return inner(keys && req.method === 'GET' ? { ...req, headers: { ...req.headers, authorization: `Bearer ${keys.readWrite}` } } : req);
      };
    },
  },
  {
    id: '401-instead-of-403',
    description: 'a key without the scope gets 401 INVALID_API_KEY',
    rule: 'gets 403 SCOPE_REQUIRED',
    documented: true,
    wrap: (h) => (req) => {
      const res = h(req);
      return errorCode(res) === 'SCOPE_REQUIRED' ? withJson(res, { error: 'No.', code: 'INVALID_API_KEY', details: {} }, 401) : res;
    },
  },
  {
    id: 'error-without-details',
    description: 'error bodies lack details',
    rule: 'every error body has the shape {error, code, details}',
    documented: true,
    wrap: (h) => (req) => {
      const res = h(req);
      if (res.status < 400 || !String(res.body).startsWith('{')) return res;
      const { details: _, ...rest } = jsonOf(res);
      return withJson(res, rest);
    },
  },
  {
    id: 'server-error-on-bad-input',
    description: 'a body that is not well-formed JSON gets 500 INTERNAL_ERROR',
    rule: 'no request of a client provokes a 5xx',
    documented: true,
    wrap: (h) => (req) => {
      const res = h(req);
      const bodyProblem = errorCode(res) === 'VALIDATION_ERROR' && jsonOf(res).details.fields?.[0]?.path === 'body';
      return bodyProblem ? withJson(res, { error: 'Unexpected token', code: 'INTERNAL_ERROR', details: {} }, 500) : res;
    },
  },
  {
    id: 'validation-as-500',
    description: 'an invalid build body gets 500 instead of VALIDATION_ERROR',
    rule: 'no request of a client provokes a 5xx',
    documented: true,
    wrap: (h) => (req) => {
      const res = h(req);
      return is(req, 'POST', PATHS.builds) && errorCode(res) === 'VALIDATION_ERROR' ? withJson(res, { error: 'Oops', code: 'INTERNAL_ERROR', details: {} }, 500) : res;
    },
  },
  {
    id: 'validation-as-422',
    description: 'VALIDATION_ERROR answered with 422',
    rule: 'gets VALIDATION_ERROR',
    wrap: (h) => (req) => {
      const res = h(req);
      return errorCode(res) === 'VALIDATION_ERROR' ? { ...res, status: 422 } : res;
    },
  },
  {
    id: 'not-found-as-200',
    areas: ['requests'],
    description: 'an unknown build id answers 200',
    rule: 'an unknown buildId',
    documented: true,
    wrap: (h) => (req) => {
      const res = h(req);
      return is(req, 'GET', PATHS.build) && res.status === 404 ? { ...res, status: 200 } : res;
    },
  },
  {
    id: 'undocumented-field',
    description: 'the balance carries a field openapi.yaml does not document',
    rule: 'must NOT have additional properties',
    wrap: (h) => editJson(h, (req, res) => is(req, 'GET', PATHS.balance) && res.status === 200, (json) => ({ ...json, bonus: 0 })),
  },
  {
    id: 'missing-correlation-id',
    description: 'responses lack X-Correlation-Id',
    rule: 'required header x-correlation-id is missing',
    wrap: (h) => (req) => (req.url.startsWith('/api/') ? withHeaders(h(req), (hd) => delete hd['x-correlation-id']) : h(req)),
  },
];
