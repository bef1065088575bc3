import { describe, expect, it } from 'vitest';
import { buildCharge, buildRefund, describedTransaction, restoredTransaction, savedTransaction } from './transaction-record.js';

const entry = { id: 'tx-1', amount: -3, balanceAfter: 97, buildId: 'b-1', createdAt: 1000 };
const build = (pages: number, kind: string) => ({ id: 'b-1', cost: 3, createdAt: 1000, pages, kind }) as Parameters<typeof buildCharge>[1];

describe('ledger entries', () => {
  it("derive a build's charge and refund descriptions from the build", () => {
    expect(buildCharge({ ...entry, type: 'build_charge' }, build(3, 'blog')).description).toBe('Build b-1: 3 × blog');
    expect(buildRefund({ ...entry, type: 'build_refund', amount: 3, balanceAfter: 100 }).description).toBe('Refund of failed build b-1');
  });

  it("read a charge booked with its build from the build, and keep one that differs from it as booked", () => {
    const read = (t: ReturnType<typeof buildCharge>) => ({ id: t.id, type: t.type, amount: t.amount, balanceAfter: t.balanceAfter, buildId: t.buildId, createdAt: t.createdAt, description: t.description, bundleId: t.bundleId });
    const expected = { ...entry, type: 'build_charge', description: 'Build b-1: 2 × doc', bundleId: undefined };
    expect(read(buildCharge({ ...entry, type: 'build_charge' }, build(2, 'doc')))).toEqual(expected);
    // Booked at another instant or for another amount than the build's: those are the entry's own.
    expect(read(buildCharge({ ...entry, type: 'build_charge', createdAt: 2000 }, build(2, 'doc')))).toEqual({ ...expected, createdAt: 2000 });
    expect(read(buildCharge({ ...entry, type: 'build_charge', amount: -5 }, build(2, 'doc')))).toEqual({ ...expected, amount: -5 });
  });

  it('save in the plain form and come back with the same description, however they were kept', () => {
    const entries = [
      buildCharge({ ...entry, type: 'build_charge' }, build(1, 'press_release')),
      buildCharge({ ...entry, type: 'build_charge', createdAt: 5 }, build(1, 'press_release')),
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
      // Restored beside its build (as an account restores its ledger after its builds): the same entry.
      expect(savedTransaction(restoredTransaction(JSON.parse(JSON.stringify(saved)), () => build(1, 'press_release')))).toEqual(saved);
    }
    expect(Object.keys(savedTransaction(entries[0]!))).toEqual(['id', 'type', 'amount', 'balanceAfter', 'description', 'buildId', 'createdAt']);
    expect(savedTransaction(entries[3]!).bundleId).toBe('starter');
  });
});
