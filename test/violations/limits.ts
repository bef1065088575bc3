import { is, withHeaders } from './tamper.js';
import { PATHS, type Violation } from './violation.js';

/** Violations of the rate limits and their headers. */
export const LIMIT_VIOLATIONS: Violation[] = [
  {
    id: 'missing-rate-limit-header',
    description: 'the balance answers without X-RateLimit-Remaining',
    rule: 'X-RateLimit-Reset are present on every response',
    documented: true,
    wrap: (h) => (req) => {
      const res = h(req);
      return is(req, 'GET', PATHS.balance) ? withHeaders(res, (headers) => delete headers['x-ratelimit-remaining']) : res;
    },
  },
  {
    id: 'no-rate-limit-headers-on-401',
    areas: ['auth'],
    description: 'a 401 carries no rate-limit headers',
    rule: 'X-RateLimit-Reset are present on every response',
    documented: true,
    wrap: (h) => (req) => {
      const res = h(req);
      return res.status === 401 ? withHeaders(res, (hd) => ['limit', 'remaining', 'reset'].forEach((n) => delete hd[`x-ratelimit-${n}`])) : res;
    },
  },
  {
    id: 'remaining-not-falling',
    description: 'X-RateLimit-Remaining stays at Limit − 1',
    rule: 'X-RateLimit-Remaining falls by one per call',
    documented: true,
    wrap: (h) => (req) => {
      const res = h(req);
      return res.status < 300 && res.headers['x-ratelimit-limit'] ? withHeaders(res, (hd) => (hd['x-ratelimit-remaining'] = String(Number(hd['x-ratelimit-limit']) - 1))) : res;
    },
  },
  {
    id: 'reset-in-the-past',
    description: 'X-RateLimit-Reset two minutes ago',
    rule: 'X-RateLimit-Reset is a Unix time in the future',
    documented: true,
    wrap: (h, sim) => (req) => withHeaders(h(req), (hd) => hd['x-ratelimit-reset'] && (hd['x-ratelimit-reset'] = String(Math.floor(sim.clock.now() / 1000) - 120))),
  },
  {
    id: 'reset-an-hour-away',
    description: 'X-RateLimit-Reset an hour ahead',
    rule: 'at most one 60-second window away',
    documented: true,
    wrap: (h, sim) => (req) => withHeaders(h(req), (hd) => hd['x-ratelimit-reset'] && (hd['x-ratelimit-reset'] = String(Math.floor(sim.clock.now() / 1000) + 3600))),
  },
  {
    id: 'wrong-build-create-limit',
    description: 'build creation reports X-RateLimit-Limit 60',
    rule: 'X-RateLimit-Limit is the limit of the route class',
    documented: true,
    wrap: (h) => (req) => {
      const res = h(req);
      return is(req, 'POST', PATHS.builds) && res.headers['x-ratelimit-limit'] === '10' ? withHeaders(res, (hd) => (hd['x-ratelimit-limit'] = '60')) : res;
    },
  },
  {
    id: 'build-limit-off-by-one',
    description: 'build creation allows 11 a minute while its headers say 10',
    rule: 'the call after the last one a window allows gets 429 RATE_LIMITED',
    documented: true,
    options: { rateLimits: { perKey: { 'build-create': 11 } } },
    wrap: (h) => (req) => {
      const res = h(req);
      if (!is(req, 'POST', PATHS.builds) || res.headers['x-ratelimit-limit'] !== '11') return res;
      return withHeaders(res, (hd) => {
        hd['x-ratelimit-limit'] = '10';
        hd['x-ratelimit-remaining'] = String(Math.max(0, Number(hd['x-ratelimit-remaining']) - 1));
      });
    },
  },
  {
    id: 'no-retry-after',
    description: 'a 429 without Retry-After',
    rule: 'Retry-After',
    wrap: (h) => (req) => {
      const res = h(req);
      return res.status === 429 ? withHeaders(res, (hd) => delete hd['retry-after']) : res;
    },
  },
  {
    id: 'no-user-limit',
    description: 'the per-user limit of 120 is not enforced',
    rule: '120 a minute per user',
    documented: true,
    options: { rateLimits: { perUser: 100_000 } },
  },
];
