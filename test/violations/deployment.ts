import { is, withHeaders, withJson } from './tamper.js';
import type { Violation } from './violation.js';

const CONTROL_RULE = 'Simulator control API: GET /_sim, POST /_sim/accounts and the clock calls answer as simulator-control.yaml states';

/**
 * Violations a deployment's server can commit outside any one check: a documented header
 * with a wrong value, and a control API that breaks its contract while the suite sets itself
 * up or hands the clock back. Each must be a failure named for its rule, never a crash.
 */
export const DEPLOYMENT_VIOLATIONS: Violation[] = [
  {
    id: 'rate-limit-header-zero',
    areas: ['rate-limits'],
    description: 'X-RateLimit-Limit is 0 on the balance (the contract documents an integer of at least 1)',
    rule: 'header x-ratelimit-limit="0"',
    documented: true,
    wrap: (h) => (req) => {
      const res = h(req);
      return is(req, 'GET', /^\/api\/v1\/tokens\/balance$/) ? withHeaders(res, (hd) => (hd['x-ratelimit-limit'] = '0')) : res;
    },
  },
  {
    id: 'control-probe-off-contract',
    description: 'GET /_sim answers its JSON as text/plain',
    rule: `${CONTROL_RULE}\n    GET /_sim → 200`,
    documented: true,
    wrap: (h) => (req) => {
      const res = h(req);
      return is(req, 'GET', /^\/_sim$/) ? withHeaders(res, (hd) => (hd['content-type'] = 'text/plain; charset=utf-8')) : res;
    },
  },
  {
    id: 'control-accounts-fail',
    description: 'POST /_sim/accounts fails with a 500, so the suite has no account to run with',
    rule: `${CONTROL_RULE}\n    POST /_sim/accounts: expected 201, got 500`,
    documented: true,
    wrap: (h) => (req) => {
      const res = h(req);
      return is(req, 'POST', /^\/_sim\/accounts$/) ? withJson(res, { error: 'Database unavailable.', code: 'INTERNAL_ERROR', details: {} }, 500) : res;
    },
  },
  {
    id: 'control-clock-resume-fails',
    description: 'POST /_sim/accounts/{accountId}/clock/resume fails with a 500 when the suite hands its clock back',
    rule: 'clock/resume: expected 200, got 500',
    documented: true,
    wrap: (h) => (req) => {
      const res = h(req);
      return is(req, 'POST', /^\/_sim\/(accounts\/[^/]+\/)?clock\/resume$/) ? withJson(res, { error: 'Clock stuck.', code: 'INTERNAL_ERROR', details: {} }, 500) : res;
    },
  },
];
