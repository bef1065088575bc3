import { describe, expect, it } from 'vitest';
import { buildCharge, buildRefund, describedTransaction, restoredTransaction, savedTransaction } from './transaction-record.js';

const entry = { id: 'tx-1', amount: -3, balanceAfter: 97, buildId: 'b-1', createdAt: 1000 };

describe('ledger entries', () => {
  it("derive a build's charge and refund descriptions from the build", () => {
    expect(buildCharge({ ...entry, type: 'build_charge' }, 3, 'blog').description).toBe('Build b-1: 3 × blog');
    expect(buildRefund({ ...entry, type: 'build_refund', amount: 3, balanceAfter: 100 }).description).toBe('Refund of failed build b-1');
  });

  it('save in the plain form and come back with the same description, however they were kept', () => {
    const entries = [
      buildCharge({ ...entry, type: 'build_charge' }, 1, 'press_release'),
      buildRefund({ ...entry, type: 'build_refund', amount: 3 }),
      describedTransaction({ ...entry, type: 'purchase', amount: 500, buildId: null, bundleId: 'starter' }, 'Token bundle: Starter'),
      // A saved file may say something else for a build's entry: it is kept as written.
      describedTransaction({ ...entry, type: 'build_charge' }, 'Charged by hand'),
    ];
    for (const t of entries) {
      const saved = savedTransaction(t);
      expect(Object.getPrototypeOf(saved)).toBe(Object.prototype);
      expect(JSON.parse(JSON.stringify(saved)).description).toBe(t.description);
      expect(savedTransaction(restoredTransaction(JSON.parse(JSON.stringify(saved))))).toEqual(saved);
    }
    expect(savedTransaction(entries[2]!).bundleId).toBe('starter');
  });
});
