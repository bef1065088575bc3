import { describe, expect, it } from 'vitest';
import { redactBody } from './body-redaction.js';

const KEY = 'svc_live_3a64bdfcbfceb5a839e6c059ec75119d284639d4';
const CODE = 'sim_ac_Q2hhbmdlIHRoaXMgY29kZSBub3cgcGxlYXNlIHRoYW5rcw';
const VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk0123';
const CSRF = 'b3k5ZWJkZ2VuZXJhdGVkY3NyZnRva2VudmFsdWUxMjM0';

describe('journal body redaction', () => {
  it.each(['NOT_FOUND', 'RATE_LIMITED', 'CONFLICT', 'VALIDATION_ERROR', 'INSUFFICIENT_TOKENS', 'IDEMPOTENCY_KEY_REUSED'])('keeps the error code %s', (code) => {
    const body = JSON.stringify({ error: 'Something', code, details: { retryAfterSeconds: 3 } });
    expect(redactBody(body)).toBe(body);
  });

  it('cuts an authorization code, a PKCE verifier, a CSRF token and a key in a sign-in or token form', () => {
    expect(redactBody(`grant_type=authorization_code&code=${CODE}&redirect_uri=http%3A%2F%2F127.0.0.1%3A9%2Fcb&code_verifier=${VERIFIER}&client_id=content-sim-demo`))
      .toBe(`grant_type=authorization_code&code=sim_ac_…${CODE.slice(-4)}&redirect_uri=http%3A%2F%2F127.0.0.1%3A9%2Fcb&code_verifier=…0123&client_id=content-sim-demo`);
    expect(redactBody(`request_id=r1&csrf_token=${CSRF}&api_key=${KEY}&decision=approve`)).toBe(`request_id=r1&csrf_token=…${CSRF.slice(-4)}&api_key=svc_live_…39d4&decision=approve`);
    // A code the simulator never issued is a secret all the same.
    expect(redactBody('grant_type=authorization_code&code=someone-elses-code-1234')).toBe('grant_type=authorization_code&code=…1234');
  });

  it('cuts secrets in JSON fields, and an OAuth code in "code", whatever its prefix', () => {
    const body = JSON.stringify({ code: 'foreign-code-abcdef', code_verifier: VERIFIER, access_token: 'sim_at_abcdefghijklmnopqrstuvwxyz012345', refresh_token: 'sim_rt_abcdefghijklmnopqrstuvwxyz6789', token: 'a1b2c3d4e5f60718293a4b5c6d7e8f90' });
    const redacted = JSON.parse(redactBody(body));
    expect(redacted).toEqual({ code: '…cdef', code_verifier: `…${VERIFIER.slice(-4)}`, access_token: 'sim_at_…2345', refresh_token: 'sim_rt_…6789', token: '…8f90' });
  });

  it('leaves ids, hints and ordinary words alone', () => {
    const body = JSON.stringify({ id: '3a64bdfc-bfce-4b5a-839e-6c059ec75119', keyHint: 'svc_live_…c765', name: 'token bundle', error: 'The API key is not recognised: it names instance 1 (svc_live_01…)' });
    expect(redactBody(body)).toBe(body);
  });

  it('reads JSON strings as JSON does: a key spelled with escapes is cut all the same', () => {
    const escaped = `\\u0073vc_live_${KEY.slice(9, 20)}\\u0033${KEY.slice(21)}`;
    const body = `{"name":"${escaped}","note":"caf\\u00e9 at 9\\/10","\\u0074oken":"${'q'.repeat(30)}"}`;
    expect(JSON.parse(body).name).toBe(KEY.slice(0, 20) + '3' + KEY.slice(21));
    const redacted = redactBody(body);
    expect(JSON.parse(redacted)).toEqual({ name: 'svc_live_…39d4', note: 'café at 9/10', token: '…qqqq' });
    // A body without escapes is kept byte for byte, escapes of JSON.stringify's own included.
    const plain = JSON.stringify({ text: 'line one\nline "two"' });
    expect(redactBody(plain)).toBe(plain);
  });

  it("cuts the sign-in page's CSRF token and request id, whichever attribute comes first", () => {
    const id = 'Zm9yLXRoZS1zaWduLWluLXBhZ2Utb25seS0xMjM0NTY';
    const page = `<form method="post"><input type="hidden" name="request_id" value="${id}">\n<input type="hidden" name="csrf_token" value="${CSRF}"><input value="${CSRF}" type="hidden" name="csrf_token"><input type="hidden" name="state" value="kept-as-it-is"></form>`;
    const redacted = redactBody(page);
    expect(redacted).not.toContain(CSRF);
    expect(redacted).not.toContain(id);
    expect(redacted).toContain(`name="request_id" value="…${id.slice(-4)}"`);
    expect(redacted).toContain(`name="csrf_token" value="…${CSRF.slice(-4)}"`);
    expect(redacted).toContain(`value="…${CSRF.slice(-4)}" type="hidden" name="csrf_token"`);
    expect(redacted).toContain('name="state" value="kept-as-it-is"');
    expect(redactBody(`request_id=${id}&csrf_token=${CSRF}&decision=approve`)).toBe(`request_id=…${id.slice(-4)}&csrf_token=…${CSRF.slice(-4)}&decision=approve`);
  });
});
