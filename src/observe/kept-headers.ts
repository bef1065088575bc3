import { redactSecrets } from './body-redaction.js';
import type { KeptHeaders } from './journal.js';
import { redactUrl } from './url-redaction.js';

/** Request headers a replay of the exchange needs: what says how to read the body, which call it repeats, who sent it. */
const REQUEST = ['authorization', 'content-type', 'accept', 'idempotency-key', 'prefer', 'if-none-match', 'last-event-id', 'mcp-session-id', 'mcp-protocol-version'] as const;
/** Response headers the contracts document (rate limits, correlation, redirects, challenges, files), and the MCP session. */
const RESPONSE = ['content-type', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after', 'x-correlation-id', 'location', 'allow', 'www-authenticate', 'content-disposition', 'cache-control', 'etag', 'mcp-session-id'] as const;

/**
 * The headers of one exchange the journal keeps for a HAR export, their secrets cut as the
 * journal cuts bodies and URLs: a credential to its scheme and last four characters (a key to
 * its `svc_live_…abcd` hint), a session id likewise, a URL as the journal shows URLs.
 */
export function keptHeaders(request: Record<string, string | undefined>, response: Record<string, string>): KeptHeaders {
  const kept: KeptHeaders = { request: {}, response: {} };
  for (const name of REQUEST) {
    const value = request[name];
    if (value !== undefined) kept.request[name] = redactHeader(name, value);
  }
  for (const name of RESPONSE) {
    const value = response[name];
    if (value !== undefined) kept.response[name] = redactHeader(name, value);
  }
  return kept;
}

function redactHeader(name: string, value: string): string {
  if (name === 'authorization') {
    const space = value.indexOf(' ');
    const scheme = space < 0 ? '' : value.slice(0, space);
    const secret = space < 0 ? value : value.slice(space + 1).trim();
    const cut = /^svc_live_/.test(secret) ? `svc_live_${tail(secret.slice(9))}` : /^sim_[a-z]{2,5}_/.test(secret) ? secret.replace(/^(sim_[a-z]{2,5}_)(.*)$/, (_, p: string, s: string) => p + tail(s)) : tail(secret);
    return scheme ? `${scheme} ${cut}` : cut;
  }
  if (name === 'mcp-session-id') return tail(value);
  if (name === 'location') return redactUrl(value);
  return redactSecrets(value);
}

function tail(secret: string): string {
  return secret.startsWith('…') ? secret : `…${secret.slice(-4)}`;
}
