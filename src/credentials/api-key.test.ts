import { describe, expect, it } from 'vitest';
import { API_KEY_PATTERN, hashApiKey, keyHint } from './api-key.js';
import { constantTimeEqual } from './constant-time.js';

const key = `svc_live_${'ab12'.repeat(10)}`;

describe('API keys', () => {
  it('accepts only the svc_live_ prefix with 40 hex characters', () => {
    expect(API_KEY_PATTERN.test(key)).toBe(true);
    expect(API_KEY_PATTERN.test(key.slice(0, -1))).toBe(false);
    expect(API_KEY_PATTERN.test(key.replace('svc_live_', 'svc_test_'))).toBe(false);
    expect(API_KEY_PATTERN.test(`${key.slice(0, -1)}g`)).toBe(false);
  });

  it('hashes keys with SHA-256, never keeping the key', () => {
    const digest = hashApiKey(key);
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    expect(digest).not.toContain(key.slice(9));
    expect(hashApiKey(key)).toBe(digest);
  });

  it('compares equal-length strings fully', () => {
    expect(constantTimeEqual('abcd', 'abcd')).toBe(true);
    expect(constantTimeEqual('abcd', 'abce')).toBe(false);
    expect(constantTimeEqual('abcd', 'abc')).toBe(false);
  });

  it('shows only the prefix and last four characters', () => {
    expect(keyHint(key)).toBe('svc_live_…ab12');
  });
});
