import { redactSecrets } from './body-redaction.js';
import type { KeptHeaders } from './journal-entry.js';
import { redactUrl } from './url-redaction.js';

/** Request headers a replay of the exchange needs: what says how to read the body, which call it repeats, who sent it. */
const REQUEST = ['authorization', 'content-type', 'accept', 'idempotency-key', 'prefer', 'if-none-match', 'last-event-id', 'mcp-session-id', 'mcp-protocol-version'] as const;
/** Response headers the contracts document (rate limits, correlation, redirects, challenges, files), and the MCP session. */
const RESPONSE = ['content-type', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after', 'x-correlation-id', 'location', 'allow', 'www-authenticate', 'content-disposition', 'cache-control', 'etag', 'mcp-session-id'] as const;
/** Values a client chooses freely, where it might put a secret by mistake: redacted as bodies are. */
const FREE_TEXT = new Set<string>(['idempotency-key', 'prefer', 'if-none-match', 'last-event-id']);

/**
 * The headers of one exchange the journal keeps for a HAR export, their secrets cut as the
 * journal cuts bodies and URLs: a credential to its scheme and last four characters (a key to
 * its `svc_live_…abcd` hint), a session id likewise, a URL as the journal shows URLs. The
 * other values are the server's own (rate limits, media types) and are kept as they are. Runs
 * on every journaled request: plain lookups, no pattern unless a value may hold a secret.
 */
export function keptHeaders(request: Record<string, string | undefined>, response: Record<string, string>): KeptHeaders {
  const kept: KeptHeaders = { request: {}, response: {} };
  for (const name of REQUEST) {
    const value = request[name];
    if (value === undefined) continue;
    kept.request[name] = name === 'authorization' ? credential(value) : name === 'mcp-session-id' ? tail(value) : FREE_TEXT.has(name) ? redactSecrets(value) : value;
  }
  for (const name of RESPONSE) {
    const value = response[name];
    if (value === undefined) continue;
    kept.response[name] = name === 'location' ? redactUrl(value) : name === 'mcp-session-id' ? tail(value) : value;
  }
  return kept;
}

/** `Bearer svc_live_…abcd` for a key, `<scheme> …abcd` for anything else. */
function credential(value: string): string {
  const space = value.indexOf(' ');
  const scheme = space < 0 ? '' : value.slice(0, space + 1);
  const secret = space < 0 ? value : value.slice(space + 1).trim();
  return `${scheme}${secret.startsWith('svc_live_') ? 'svc_live_' : ''}${tail(secret)}`;
}

function tail(secret: string): string {
  return `…${secret.slice(-4)}`;
}
