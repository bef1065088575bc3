import { describe, expect, it } from 'vitest';
import { keptHeaders } from './kept-headers.js';

const KEY = `svc_live_${'0123456789abcdef'.repeat(2)}01234567`;

describe('the headers the journal keeps for a HAR export', () => {
  it('keeps the documented ones, cuts credentials, session ids, URLs and free text with a secret in it, and drops the rest', () => {
    const kept = keptHeaders(
      { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', 'idempotency-key': `oops-${KEY}`, 'mcp-session-id': 'session-abcdef-1234', cookie: 'sid=secret', 'x-control-token': 'control-secret' },
      { 'content-type': 'application/json', 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '59', location: '/oauth/callback?code=sim_ac_0123456789abcdef', 'set-cookie': 'sid=secret', 'x-powered-by': 'x' },
    );
    expect(kept.request).toEqual({ authorization: `Bearer svc_live_…${KEY.slice(-4)}`, 'content-type': 'application/json', 'idempotency-key': `oops-svc_live_…${KEY.slice(-4)}`, 'mcp-session-id': '…1234' });
    expect(kept.response).toEqual({ 'content-type': 'application/json', 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '59', location: '/oauth/callback?code=…cdef' });
    expect(keptHeaders({ authorization: 'Bearer sim_at_abcdefghijklmnop' }, {}).request.authorization).toBe('Bearer …mnop');
    expect(keptHeaders({ authorization: 'nonsense-without-scheme' }, {}).request.authorization).toBe('…heme');
  });
});
