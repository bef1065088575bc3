import { describe, expect, it } from 'vitest';
import { ContractValidator } from '../contracts/shared/contract-validator.js';
import { CONTRACT_FILES } from '../contracts/shared/openapi-model.js';
import { contract } from './support/contract.js';

const rate = { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '59', 'x-ratelimit-reset': '1772442060', 'x-correlation-id': 'corr_abc123' };
const json = { 'content-type': 'application/json; charset=utf-8' };
const balance = JSON.stringify({ balance: 1, lifetimePurchased: 2, lifetimeUsed: 1 });
const ok = { method: 'GET', url: '/api/v1/tokens/balance', status: 200, headers: { ...rate, ...json }, body: balance };

/** The checker every test relies on must itself catch each kind of breach. */
describe('the contract validator', () => {
  it('accepts a conforming response', () => {
    expect(contract.validate(ok)).toEqual([]);
  });

  it.each([
    ['an undocumented status', { status: 418 }, 'status'],
    ['a missing rate-limit header', { headers: { ...json, 'x-ratelimit-limit': '60', 'x-ratelimit-reset': '1', 'x-correlation-id': 'corr_a' } }, 'header'],
    ['a header of the wrong type', { headers: { ...rate, ...json, 'x-ratelimit-remaining': 'many' } }, 'header'],
    ['an undocumented header', { headers: { ...rate, ...json, 'retry-after': '3' } }, 'header'],
    ['an undocumented content type', { headers: { ...rate, 'content-type': 'text/plain' } }, 'content-type'],
    ['a body that is not JSON', { body: '{' }, 'body'],
    ['a missing field', { body: JSON.stringify({ balance: 1, lifetimePurchased: 2 }) }, 'body'],
    ['an undocumented field', { body: JSON.stringify({ balance: 1, lifetimePurchased: 2, lifetimeUsed: 1, bonus: 3 }) }, 'body'],
    ['a negative balance', { body: JSON.stringify({ balance: -1, lifetimePurchased: 2, lifetimeUsed: 1 }) }, 'body'],
  ])('rejects %s', (_, change, rule) => {
    const violations = contract.validate({ ...ok, ...change });
    expect(violations.map((v) => v.rule)).toContain(rule);
    expect(violations[0]!.operation).toBe('getTokenBalance');
  });

  it('rejects an error code outside the documented response', () => {
    const body = JSON.stringify({ error: 'x', code: 'RATE_LIMITED', details: {} });
    const violations = contract.validate({ ...ok, status: 401, headers: { ...rate, ...json, 'www-authenticate': 'Bearer' }, body });
    expect(violations.some((v) => v.rule === 'body')).toBe(true);
  });

  it('names the schema path in the message', () => {
    const [v] = contract.validate({ ...ok, body: JSON.stringify({ balance: 'x', lifetimePurchased: 2, lifetimeUsed: 1 }) });
    expect(v!.message).toContain('/balance');
    expect(v!.message).toContain('TokenBalance');
  });

  it('requires 404 or 405 with an error body when no operation matches', () => {
    expect(contract.validate({ method: 'GET', url: '/nowhere', status: 200, headers: json, body: '{}' }).length).toBeGreaterThan(0);
    const notFound = JSON.stringify({ error: 'x', code: 'NOT_FOUND', details: {} });
    expect(contract.validate({ method: 'GET', url: '/nowhere', status: 404, headers: json, body: notFound })).toEqual([]);
  });
});

describe('the validator the contract suite shares between its runs', () => {
  it('is one per contract files and options, and judges as a validator of its own would', () => {
    const documented = ContractValidator.shared(CONTRACT_FILES, { level: 'documented', allowUndocumentedHeaders: true });
    expect(ContractValidator.shared(CONTRACT_FILES, { level: 'documented', allowUndocumentedHeaders: true })).toBe(documented);
    const strict = ContractValidator.shared(CONTRACT_FILES, { level: 'strict', allowUndocumentedHeaders: true });
    expect(strict).not.toBe(documented);
    expect(ContractValidator.shared(CONTRACT_FILES, { level: 'strict' })).not.toBe(strict);
    const loose = { ...ok, headers: { ...json, 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '59', 'x-ratelimit-reset': '1772442060' }, body: JSON.stringify({ balance: 1, lifetimePurchased: 2, lifetimeUsed: 1, bonus: 3 }) };
    for (const [shared, own] of [[documented, ContractValidator.fromFiles(CONTRACT_FILES, { level: 'documented', allowUndocumentedHeaders: true })], [strict, ContractValidator.fromFiles(CONTRACT_FILES, { allowUndocumentedHeaders: true })]] as const) {
      expect(shared.validate(loose)).toEqual(own.validate(loose));
    }
    expect(strict.validate(loose).length).toBeGreaterThan(0);
    expect(documented.validate(loose)).toEqual([]);
  });
});
