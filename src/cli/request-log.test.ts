import { describe, expect, it } from 'vitest';
import { formatRequestLine, redactUrl } from './request-log.js';

describe('request log', () => {
  it('keeps only the last four characters of a share token', () => {
    const token = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
    expect(redactUrl(`/api/v1/shared/${token}?x=1`)).toBe('/api/v1/shared/…8f90?x=1');
    expect(redactUrl('/api/v1/builds/123')).toBe('/api/v1/builds/123');
  });

  it('prints the key hint, never a key', () => {
    const line = formatRequestLine({ method: 'GET', url: '/api/v1/tokens/balance', status: 200, durationMs: 1.234, keyHint: 'svc_live_…abcd', correlationId: 'corr_1' });
    expect(line).toBe('GET /api/v1/tokens/balance 200 1.2ms svc_live_…abcd corr_1\n');
  });
});
