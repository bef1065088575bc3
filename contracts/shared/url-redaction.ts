// The contract suite's copy of src/observe/url-redaction.ts (contracts/ imports nothing from src/): test/drift/redaction-copies.test.ts keeps them the same.
/**
 * URLs as they may be logged or shown: every secret a client might put in one (an API key,
 * a share token, an OAuth code or token, a client secret) is cut to its last four characters,
 * whatever its spelling: percent-encoded (once or twice), in any letter case, behind doubled
 * slashes, as a path segment or as a query parameter of any name.
 */

/** Query parameters whose value is a secret, compared in lower case with `-` and `_` removed. */
const SECRET_PARAMS = new Set([
  'apikey', 'key', 'token', 'accesstoken', 'refreshtoken', 'idtoken', 'code', 'codeverifier',
  'clientsecret', 'secret', 'password', 'authorization', 'auth', 'bearer', 'controltoken', 'sharetoken',
]);
const API_KEY = /svc_live_[0-9a-z]+/gi;
/** A long run of token characters with a digit in it: what every generated secret looks like (ids aside). */
const LONG_TOKEN = /[A-Za-z0-9_~.-]{32,}={0,2}/g;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * URLs found to hold no secret, remembered: a load test or a poller repeats the same few, and
 * the full check costs a microsecond or two. Only URLs redaction left unchanged are kept, so
 * the memo never holds a secret; it is cleared when full.
 */
const clean = new Set<string>();
const CLEAN_LIMIT = 1024;

export function redactUrl(url: string): string {
  if (clean.has(url)) return url;
  const redacted = redactUncached(url);
  if (redacted === url) {
    if (clean.size >= CLEAN_LIMIT) clean.clear();
    clean.add(url);
  }
  return redacted;
}

function redactUncached(url: string): string {
  const decoded = decodeFully(url);
  const queryStart = decoded.indexOf('?');
  const path = queryStart === -1 ? decoded : decoded.slice(0, queryStart);
  const query = queryStart === -1 ? '' : decoded.slice(queryStart + 1);
  const redacted = redactPath(path) + (queryStart === -1 ? '' : `?${redactQuery(query)}`);
  return escapeControls(redactTokens(redacted));
}

function redactPath(path: string): string {
  const segments = path.split('/');
  for (let i = 1; i < segments.length; i++) {
    // The segment after `shared` (however many empty segments between) is a share token.
    if (segments[i - 1]?.toLowerCase() !== 'shared') continue;
    let j = i;
    while (j < segments.length && segments[j] === '') j++;
    if (j < segments.length) segments[j] = tail(segments[j] as string);
  }
  return segments.join('/');
}

function redactQuery(query: string): string {
  return query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq === -1) return pair;
      const name = pair.slice(0, eq);
      return SECRET_PARAMS.has(name.toLowerCase().replace(/[-_]/g, '')) ? `${name}=${tail(pair.slice(eq + 1))}` : pair;
    })
    .join('&');
}

function redactTokens(text: string): string {
  return text.replace(API_KEY, (key) => `svc_live_${tail(key.slice(9))}`).replace(LONG_TOKEN, (run) => (UUID.test(run) || !/[0-9]/.test(run) ? run : tail(run)));
}

function tail(secret: string): string {
  return secret.startsWith('…') ? secret : `…${secret.slice(-4)}`;
}

/** Percent-decoding until nothing changes (at most three rounds: double encoding is common). */
function decodeFully(url: string): string {
  let current = url;
  for (let round = 0; round < 3; round++) {
    let next: string;
    try {
      next = decodeURIComponent(current.replace(/\+/g, ' '));
    } catch {
      return current;
    }
    if (next === current) return current;
    current = next;
  }
  return current;
}

/** A decoded URL must not forge log lines: control characters go back to their escapes. */
function escapeControls(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f]/g, (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0').toUpperCase()}`);
}
