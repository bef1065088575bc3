import { withJson, type Handle } from './tamper.js';
import { rewriteAuthorization, withAccounts, withAuthorization } from './request-tamper.js';
import type { Violation } from './violation.js';

const HEX40 = /^svc_live_[0-9a-f]{40}$/;

/** A server that lets a loosely matching credential in: `loosen` turns what was sent into a key it accepts. */
function accepts(loosen: (authorization: string, keys: string[], readWrite: string) => string | undefined): (h: Handle) => Handle {
  return (h) =>
    withAccounts(h, (inner, accounts) =>
      rewriteAuthorization(inner, (authorization) => {
        if (authorization === undefined) return undefined;
        const keys = accounts.flatMap((k) => Object.values(k));
        const key = loosen(authorization, keys, accounts[0]?.readWrite ?? '');
        return key ? `Bearer ${key}` : authorization;
      }),
    );
}

const bearer = (authorization: string) => /^Bearer (\S+)$/.exec(authorization)?.[1];

/** Violations of authentication with a credential of a wrong form: each form the suite sends, let in. */
export const CREDENTIAL_VIOLATIONS: Violation[] = [
  {
    id: 'unknown-key-accepted',
    description: 'a well-formed key that no account has is taken for the first account\'s key',
    rule: 'a well-formed key that no account has gets 401',
    documented: true,
    wrap: accepts((auth, keys, readWrite) => {
      const key = bearer(auth);
      return key && HEX40.test(key) && !keys.includes(key) ? readWrite : undefined;
    }),
  },
  {
    id: 'test-prefix-accepted',
    description: 'svc_test_ keys are accepted as svc_live_ ones',
    rule: 'a key whose prefix is not svc_live_',
    documented: true,
    wrap: accepts((auth) => bearer(auth)?.replace(/^svc_test_/, 'svc_live_')),
  },
  {
    id: 'upper-prefix-accepted',
    description: 'the key prefix is compared without case',
    rule: 'a key with an upper-case prefix',
    documented: true,
    wrap: accepts((auth) => bearer(auth)?.replace(/^SVC_LIVE_/, 'svc_live_')),
  },
  {
    id: 'truncated-key-accepted',
    description: 'a key is matched by its beginning, so one character short still works',
    rule: 'a key one hexadecimal character short',
    documented: true,
    wrap: accepts((auth, keys) => {
      const key = bearer(auth);
      return key && key.length >= 40 ? keys.find((k) => k !== key && k.startsWith(key)) : undefined;
    }),
  },
  {
    id: 'extended-key-accepted',
    description: 'a key is matched on its first 49 characters, so a character more still works',
    rule: 'a key one hexadecimal character long',
    documented: true,
    wrap: accepts((auth) => bearer(auth)?.slice(0, 49)),
  },
  {
    id: 'upper-hex-accepted',
    description: 'the hexadecimal part of a key is compared without case',
    rule: 'the valid key with its hexadecimal part in upper case',
    documented: true,
    wrap: accepts((auth) => bearer(auth)?.toLowerCase()),
  },
  {
    id: 'prefix-optional',
    description: 'a key without its svc_live_ prefix is taken for the key',
    rule: 'the valid key without its svc_live_ prefix',
    documented: true,
    wrap: accepts((auth) => {
      const key = bearer(auth);
      return key && /^[0-9a-f]{40}$/.test(key) ? `svc_live_${key}` : undefined;
    }),
  },
  {
    id: 'padding-stripped',
    description: 'trailing "=" padding is stripped from the key before it is looked up',
    rule: 'the valid key padded with "=="',
    documented: true,
    wrap: accepts((auth) => bearer(auth)?.replace(/=+$/, '')),
  },
  {
    id: 'empty-bearer-500',
    description: '"Bearer " with no key crashes the server',
    rule: '"Bearer" with no key gets 401',
    documented: true,
    wrap: (h) => (req) => {
      const res = h(req);
      return /^Bearer\s*$/.test(req.headers.authorization ?? 'x') ? withJson(res, { error: 'Cannot read properties of undefined', code: 'INTERNAL_ERROR', details: {} }, 500) : res;
    },
  },
  {
    id: 'token-scheme-accepted',
    description: 'any scheme is accepted before the key',
    rule: 'the valid key under another scheme (Token <key>)',
    documented: true,
    wrap: accepts((auth) => /^Token (\S+)$/.exec(auth)?.[1]),
  },
  {
    id: 'no-scheme-accepted',
    description: 'a bare key with no scheme is accepted',
    rule: 'the valid key with no scheme',
    documented: true,
    wrap: accepts((auth) => (HEX40.test(auth) ? auth : undefined)),
  },
  {
    id: 'basic-scheme-accepted',
    description: 'Basic credentials carrying the key as user name are accepted',
    rule: 'the valid key as Basic credentials',
    documented: true,
    wrap: accepts((auth) => {
      const basic = /^Basic (\S+)$/.exec(auth)?.[1];
      return basic ? atob(basic).replace(/:$/, '') : undefined;
    }),
  },
  {
    id: 'api-key-header-accepted',
    description: 'a key in X-API-Key is accepted without Authorization',
    rule: 'the valid key in an X-API-Key header',
    documented: true,
    wrap: (h) => (req) => (req.headers['x-api-key'] && !req.headers.authorization ? h(withAuthorization(req, `Bearer ${req.headers['x-api-key']}`)) : h(req)),
  },
  {
    id: 'query-key-accepted',
    description: 'a key in the api_key query parameter is accepted without Authorization',
    rule: 'the valid key in the query (?api_key=)',
    documented: true,
    wrap: (h) => (req) => {
      const key = new URLSearchParams(req.url.split('?')[1] ?? '').get('api_key');
      return key && !req.headers.authorization ? h(withAuthorization(req, `Bearer ${key}`)) : h(req);
    },
  },
  {
    id: 'lower-case-bearer-refused',
    description: 'the scheme must be spelt "Bearer" exactly',
    rule: 'the scheme is case-insensitive',
    wrap: (h) => (req) => (/^bearer /.test(req.headers.authorization ?? '') ? h(withAuthorization(req, undefined)) : h(req)),
  },
];
