import type { Check } from '../check.js';
import type { ContractLevel } from '../../shared/contract-validator.js';
import type { CallOptions, Reply } from '../http-client.js';
import { ContractFailure } from '../../shared/outcomes.js';
import type { Session } from '../session.js';
import { expectError, expectSuccess } from './expect.js';

const PREFIX = 'svc_live_';

/** 40 hexadecimal characters from a cryptographic source: a key of the right form that no account has. */
function randomHex40(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(20));
  return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
}

interface CredentialForm {
  id: string;
  /** The rule, with its source. */
  rule: string;
  level: ContractLevel;
  /** What to send, built from the run's own read+write key (so a server that loosely matches it would let it in). */
  send: (key: string) => CallOptions;
  /** Expected: refused with 401 and one of these codes (documented level: any of them; strict level: the first), or accepted. */
  expect: { refused: string[] } | 'accepted';
  /** Why this form cannot be built from the run's key (it would be the key itself), if so. */
  unbuildable?: (key: string) => string | undefined;
}

/** Either code the spec allows for a key that is not the one issued (Authentication 4); openapi.yaml names INVALID_API_KEY. */
const NOT_THE_KEY = ['INVALID_API_KEY', 'UNAUTHORIZED'];

/**
 * Every malformed form of a credential a server could mishandle: each built from the run's own
 * valid key, so that a server comparing loosely (a prefix, a case, a scheme it ignores) lets it
 * in and fails. Spec, Authentication 1, 4 and API key: `Authorization: Bearer <key>`, the key is
 * `svc_live_` followed by 40 hexadecimal characters; a missing, malformed or revoked key gets 401.
 * A key altered in any way (prefix dropped or changed, case changed, truncated, extended,
 * padded) is not the issued key: every level refuses it.
 */
const FORMS: CredentialForm[] = [
  {
    id: 'unknown',
    rule: 'Authentication 4, Errors: a well-formed key that no account has gets 401 (openapi.yaml, strict: INVALID_API_KEY)',
    level: 'documented',
    send: () => ({ authorization: `Bearer ${PREFIX}${randomHex40()}` }),
    expect: { refused: ['INVALID_API_KEY', 'UNAUTHORIZED'] },
  },
  {
    id: 'wrong-prefix',
    rule: 'API key, Authentication 4: a key whose prefix is not svc_live_ (the valid key as svc_test_) gets 401 INVALID_API_KEY',
    level: 'documented',
    send: (key) => ({ authorization: `Bearer svc_test_${key.slice(PREFIX.length)}` }),
    expect: { refused: ['INVALID_API_KEY'] },
  },
  {
    id: 'upper-prefix',
    rule: 'API key, Authentication 4: a key with an upper-case prefix (SVC_LIVE_) gets 401 INVALID_API_KEY',
    level: 'documented',
    send: (key) => ({ authorization: `Bearer ${PREFIX.toUpperCase()}${key.slice(PREFIX.length)}` }),
    expect: { refused: ['INVALID_API_KEY'] },
  },
  {
    id: 'truncated',
    rule: 'API key, Authentication 4: a key one hexadecimal character short (39) gets 401 INVALID_API_KEY',
    level: 'documented',
    send: (key) => ({ authorization: `Bearer ${key.slice(0, -1)}` }),
    expect: { refused: ['INVALID_API_KEY'] },
  },
  {
    id: 'extended',
    rule: 'API key, Authentication 4: a key one hexadecimal character long (41) gets 401 INVALID_API_KEY',
    level: 'documented',
    send: (key) => ({ authorization: `Bearer ${key}0` }),
    expect: { refused: ['INVALID_API_KEY'] },
  },
  {
    id: 'upper-hex',
    rule: 'API key, Authentication 4: the valid key with its hexadecimal part in upper case (case changed) is not the issued key: 401 (openapi.yaml, strict: INVALID_API_KEY)',
    level: 'documented',
    send: (key) => ({ authorization: `Bearer ${PREFIX}${key.slice(PREFIX.length).toUpperCase()}` }),
    expect: { refused: NOT_THE_KEY },
    unbuildable: (key) => (/[a-f]/.test(key.slice(PREFIX.length)) ? undefined : 'the run\'s key has no hexadecimal letter whose case could change'),
  },
  {
    id: 'prefix-dropped',
    rule: 'API key, Authentication 4: the valid key without its svc_live_ prefix (its 40 hexadecimal characters alone) gets 401 (openapi.yaml, strict: INVALID_API_KEY)',
    level: 'documented',
    send: (key) => ({ authorization: `Bearer ${key.slice(PREFIX.length)}` }),
    expect: { refused: NOT_THE_KEY },
  },
  {
    id: 'padded',
    rule: 'API key, Authentication 4: the valid key padded with "==" (as a base64 token would be) gets 401 (openapi.yaml, strict: INVALID_API_KEY)',
    level: 'documented',
    send: (key) => ({ authorization: `Bearer ${key}==` }),
    expect: { refused: NOT_THE_KEY },
  },
  {
    id: 'empty-bearer',
    rule: 'Authentication 4: "Bearer" with no key gets 401 (openapi.yaml, strict: UNAUTHORIZED)',
    level: 'documented',
    send: () => ({ authorization: 'Bearer ' }),
    expect: { refused: ['UNAUTHORIZED', 'INVALID_API_KEY'] },
  },
  {
    id: 'token-scheme',
    rule: 'Authentication 1, 4: the valid key under another scheme (Token <key>) gets 401 (openapi.yaml, strict: UNAUTHORIZED)',
    level: 'documented',
    send: (key) => ({ authorization: `Token ${key}` }),
    expect: { refused: ['UNAUTHORIZED', 'INVALID_API_KEY'] },
  },
  {
    id: 'no-scheme',
    rule: 'Authentication 1, 4: the valid key with no scheme (Authorization: <key>) gets 401 (openapi.yaml, strict: UNAUTHORIZED)',
    level: 'documented',
    send: (key) => ({ authorization: key }),
    expect: { refused: ['UNAUTHORIZED', 'INVALID_API_KEY'] },
  },
  {
    id: 'basic-scheme',
    rule: 'Authentication 1, 4: the valid key as Basic credentials gets 401 (openapi.yaml, strict: UNAUTHORIZED)',
    level: 'documented',
    send: (key) => ({ authorization: `Basic ${btoa(`${key}:`)}` }),
    expect: { refused: ['UNAUTHORIZED', 'INVALID_API_KEY'] },
  },
  {
    id: 'api-key-header',
    rule: 'Authentication 1, 4: the valid key in an X-API-Key header, with no Authorization, gets 401 UNAUTHORIZED',
    level: 'documented',
    send: (key) => ({ as: null, headers: { 'X-API-Key': key } }),
    expect: { refused: ['UNAUTHORIZED'] },
  },
  {
    id: 'query-key',
    rule: 'Authentication 1, 4: the valid key in the query (?api_key=), with no Authorization, gets 401 UNAUTHORIZED',
    level: 'documented',
    send: (key) => ({ as: null, query: { api_key: key } }),
    expect: { refused: ['UNAUTHORIZED'] },
  },
  {
    id: 'lower-case-scheme',
    rule: 'openapi.yaml (RFC 9110, 11.1): the scheme is case-insensitive: "bearer <key>" is accepted like "Bearer <key>"',
    level: 'strict',
    send: (key) => ({ authorization: `bearer ${key}` }),
    expect: 'accepted',
  },
];

/** One check per form, each on a read (the balance) and on a write (a target named for the run). */
export function credentialChecks(): Check[] {
  return FORMS.map(
    (form): Check => ({
      id: `credentials.${form.id}`,
      title: form.rule,
      level: form.level,
      covers: ['getTokenBalance', 'createTarget'],
      requests: 2,
      run: async (s) => {
        const key = s.keys.readWrite as string;
        const unbuildable = form.unbuildable?.(key);
        if (unbuildable) s.skipBecause(unbuildable);
        const read = await s.client.op('getTokenBalance', {}, form.send(key));
        judge(s, form, read, 'GET /api/v1/tokens/balance');
        const { slug, name } = s.newTargetName(`cred-${form.id}`);
        const write = await s.client.op('createTarget', {}, { ...form.send(key), body: { name, slug } });
        judge(s, form, write, 'POST /api/v1/targets');
      },
    }),
  );
}

function judge(s: Session, form: CredentialForm, reply: Reply, where: string): void {
  if (form.expect === 'accepted') return expectSuccess(reply, `${form.rule} (${where})`);
  const codes = form.expect.refused;
  if (s.strict) return expectError(reply, 401, codes[0], `${form.rule} (${where})`);
  if (reply.status !== 401 || !codes.includes(reply.json?.code)) {
    throw new ContractFailure(`${form.rule} (${where}): expected 401 ${codes.join(' or ')}, got ${reply.status} ${reply.text.slice(0, 200)}`);
  }
}
