import { describe, expect, it } from 'vitest';
import { formatRequestLine, redactUrl } from './request-log.js';

describe('request log', () => {
  it('keeps only the last four characters of a share token', () => {
    const token = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
    expect(redactUrl(`/api/v1/shared/${token}?x=1`)).toBe('/api/v1/shared/…8f90?x=1');
    expect(redactUrl('/api/v1/builds/123')).toBe('/api/v1/builds/123');
  });

  it('prints the time, the key hint (never a key), the operation and the error code', () => {
    const at = new Date('2026-03-02T09:00:00.000Z');
    const line = formatRequestLine({ method: 'GET', url: '/api/v1/tokens/balance', status: 200, durationMs: 1.234, keyHint: 'svc_live_…abcd', correlationId: 'corr_1', operationId: 'getTokenBalance' }, at);
    expect(line).toBe('2026-03-02T09:00:00.000Z GET /api/v1/tokens/balance 200 1.2ms svc_live_…abcd corr_1 getTokenBalance\n');
    const refused = formatRequestLine({ method: 'POST', url: '/api/v1/builds', status: 402, durationMs: 0.5, correlationId: 'corr_2', operationId: 'createBuild', errorCode: 'INSUFFICIENT_TOKENS' }, at);
    expect(refused).toContain(' 402 INSUFFICIENT_TOKENS 0.5ms - corr_2 createBuild');
  });
});
