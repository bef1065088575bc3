import { describe, expect, it } from 'vitest';
import { redactUrl } from './url-redaction.js';

const KEY = 'svc_live_3a64bdfcbfceb5a839e6c059ec75119d284639d4';
const SHARE = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';

describe('URL redaction', () => {
  it.each([
    [`/api/v1/shared/${SHARE}?x=1`, '/api/v1/shared/…8f90?x=1'],
    [`//api//v1//shared//${SHARE}`, '//api//v1//shared//…8f90'],
    [`/API/V1/SHARED/${SHARE}`, '/API/V1/SHARED/…8f90'],
    [`/api/v1/shared%2F${SHARE}`, '/api/v1/shared/…8f90'],
    [`/api/v1/%73hared/${SHARE}`, '/api/v1/shared/…8f90'],
    [`/api/v1/shared%252F${SHARE}`, '/api/v1/shared/…8f90'],
    [`/api/v1/tokens/balance?api_key=${KEY}`, '/api/v1/tokens/balance?api_key=…39d4'],
    [`/api/v1/tokens/balance?API-KEY=${KEY}&limit=5`, '/api/v1/tokens/balance?API-KEY=…39d4&limit=5'],
    [`/api/v1/tokens/balance?x=${encodeURIComponent(KEY)}`, '/api/v1/tokens/balance?x=svc_live_…39d4'],
    [`/api/v1/tokens/balance?x=${KEY.toUpperCase()}`, '/api/v1/tokens/balance?x=svc_live_…39D4'],
    ['/oauth/authorize?code=abc123&state=xyz', '/oauth/authorize?code=…c123&state=xyz'],
    ['/mcp?access_token=Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZmdo', '/mcp?access_token=…Zmdo'],
  ])('%s → %s', (raw, logged) => {
    expect(redactUrl(raw)).toBe(logged);
  });

  it('leaves ids, cursors and words alone', () => {
    const plain = '/api/v1/builds/3a64bdfc-bfce-4b5a-839e-6c059ec75119/deliverables?limit=5&cursor=c1.2s&q=a-long-hyphenated-search-about-cold-brew';
    expect(redactUrl(plain)).toBe(plain);
  });

  it('cannot forge a log line with encoded control characters', () => {
    expect(redactUrl('/api/v1/builds%0A200 GET /fake')).toBe('/api/v1/builds%0A200 GET /fake');
  });

  it('survives malformed escapes', () => {
    expect(redactUrl(`/api/v1/shared/${SHARE}%E0%A4%A`)).toContain('/shared/…');
  });
});
