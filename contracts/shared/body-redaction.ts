// The contract suite's copy of src/observe/body-redaction.ts (contracts/ imports nothing from src/): test/drift/redaction-copies.test.ts keeps them the same.
/**
 * Request and response bodies as the journal keeps them: every secret cut to its last four
 * characters, like a key hint, so a developer can still tell two apart; everything else, error
 * codes first of all, kept as it was. Bodies are JSON, HTML forms and the sign-in page (the
 * OAuth endpoints). A JSON string is read as JSON reads it: one that spells a secret with
 * escapes (`\u0073vc_live_…`) is written out plainly first, so the secret is found and cut.
 */

/** Bodies are kept up to this many characters (a deliverable's content is not needed to debug a client). */
export const BODY_LIMIT = 4096;

/** One pass of one regular expression finds the bodies that may hold a secret; most hold none and are kept as they are. */
const SECRET_MARK = /svc_live_|sim_|token|secret|password|verifier|api_key|apiKey|request_id|\/shared\/|"hash"|code=|"code"/;

/** Secrets the simulator issues, by their prefix: API keys, and OAuth codes and tokens (`sim_ac_`, `sim_at_`, `sim_rt_`, …). */
const API_KEY = /svc_live_[0-9a-fA-F]{4,}/g;
const OAUTH_SECRET = /\b(sim_[a-z]{2,5}_)([A-Za-z0-9_-]{8,})/g;
/** Share tokens and digests: a run of 32 hexadecimal characters or more that is not part of a UUID. */
const HEX_RUN = /(?<![0-9a-fA-F-])[0-9a-fA-F]{32,}(?![0-9a-fA-F-])/g;

/** Fields whose value is a secret whatever it looks like (a client may send one the simulator did not issue). */
const SECRET_FIELDS = 'code_verifier|client_secret|password|token|access_token|refresh_token|id_token|csrf_token|request_id|api_key|apiKey';
const JSON_SECRET = new RegExp(`("(?:${SECRET_FIELDS})"\\s*:\\s*")([^"]{5,})(")`, 'g');
const FORM_SECRET = new RegExp(`((?:^|&)(?:${SECRET_FIELDS}|code)=)([^&]{5,})`, 'g');
/** A form field of a page (the sign-in page's CSRF token and request id), its name before or after its value. */
const HTML_SECRET = new RegExp(`(<input\\b[^>]*\\bname="(?:${SECRET_FIELDS})"[^>]*\\bvalue=")([^"]{5,})(")`, 'g');
const HTML_SECRET_VALUE_FIRST = new RegExp(`(<input\\b[^>]*\\bvalue=")([^"]{5,})("[^>]*\\bname="(?:${SECRET_FIELDS})")`, 'g');
/** A JSON string with an escape `JSON.stringify` would not write (`\u…`, `\/`): what may hide a secret's spelling. */
const ESCAPE_MARK = /\\u|\\\//;
const ESCAPED_STRING = /"(?:[^"\\]|\\.)*\\(?:u|\/)(?:[^"\\]|\\.)*"/g;
/**
 * `"code"` holds an OAuth authorization code in a request, and the error code in every error
 * body (`NOT_FOUND`, `RATE_LIMITED`…): only a value that is not an error code is a secret.
 */
const JSON_CODE = /("code"\s*:\s*")(?![A-Z][A-Z0-9_]*")([^"]{5,})(")/g;

export function redactBody(body: string): string {
  return redactSecrets(body.length > BODY_LIMIT ? `${body.slice(0, BODY_LIMIT)}…(${body.length - BODY_LIMIT} more characters)` : body);
}

/** A body of any length with its secrets cut as the journal cuts them, nothing else changed (a HAR export keeps whole bodies). */
export function redactSecrets(body: string): string {
  const text = ESCAPE_MARK.test(body) ? plainStrings(body) : body;
  if (!SECRET_MARK.test(text)) return text;
  return text
    .replace(API_KEY, (key) => `svc_live_${tail(key.slice(9))}`)
    .replace(OAUTH_SECRET, (_, prefix: string, secret: string) => prefix + tail(secret))
    .replace(HEX_RUN, tail)
    .replace(JSON_SECRET, (_, before: string, secret: string, after: string) => before + tail(secret) + after)
    .replace(JSON_CODE, (_, before: string, secret: string, after: string) => before + tail(secret) + after)
    .replace(FORM_SECRET, (_, before: string, secret: string) => before + tail(secret))
    .replace(HTML_SECRET, (_, before: string, secret: string, after: string) => before + tail(secret) + after)
    .replace(HTML_SECRET_VALUE_FIRST, (_, before: string, secret: string, after: string) => before + tail(secret) + after);
}

/** Each JSON string written with escapes, written again as `JSON.stringify` writes it: the same string, spelled plainly. */
function plainStrings(text: string): string {
  return text.replace(ESCAPED_STRING, (literal) => {
    try {
      return JSON.stringify(JSON.parse(literal) as string);
    } catch {
      return literal;
    }
  });
}

/** The last four characters after an ellipsis; a value already cut stays as it is. */
function tail(secret: string): string {
  if (secret.includes('…')) return secret;
  return `…${secret.slice(-4)}`;
}
