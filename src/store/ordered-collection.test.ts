import { describe, expect, it } from 'vitest';
import { ApiError } from '../engine/api-error.js';
import { OrderedCollection } from './ordered-collection.js';

function collection(n: number) {
  const c = new OrderedCollection<{ id: string; n: number }>('record');
  for (let i = 1; i <= n; i++) c.add({ id: `id-${i}`, n: i });
  return c;
}

describe('OrderedCollection', () => {
  it('pages newest first and ends with a null cursor', () => {
    const c = collection(5);
    const first = c.page(2, undefined);
    expect(first.data.map((x) => x.n)).toEqual([5, 4]);
    const second = c.page(2, first.nextCursor!);
    expect(second.data.map((x) => x.n)).toEqual([3, 2]);
    const last = c.page(2, second.nextCursor!);
    expect(last).toEqual({ data: [{ id: 'id-1', n: 1 }], nextCursor: null });
  });

  it('gives no cursor when the page ends exactly at the last record', () => {
    expect(collection(4).page(4, undefined).nextCursor).toBeNull();
  });

  it('keeps cursors valid across additions and removals', () => {
    const c = collection(6);
    const first = c.page(3, undefined);
    c.add({ id: 'new', n: 7 });
    c.remove('id-3');
    expect(c.page(3, first.nextCursor!).data.map((x) => x.n)).toEqual([2, 1]);
  });

  it('filters while paging', () => {
    const c = collection(10);
    const even = c.page(3, undefined, (x) => x.n % 2 === 0);
    expect(even.data.map((x) => x.n)).toEqual([10, 8, 6]);
    expect(c.page(3, even.nextCursor!, (x) => x.n % 2 === 0).data.map((x) => x.n)).toEqual([4, 2]);
  });

  it('refuses a cursor it did not issue with a validation error', () => {
    expect(() => collection(2).page(1, 'nonsense')).toThrow(ApiError);
    expect(() => collection(2).page(1, 'c1.-5')).toThrow(ApiError);
  });

  it('answers 404 NOT_FOUND naming its resource for an id it does not hold', () => {
    const c = collection(1);
    expect(c.require('id-1').n).toBe(1);
    expect(() => c.require('id-9')).toThrow(expect.objectContaining({ status: 404, code: 'NOT_FOUND', details: { resource: 'record', id: 'id-9' } }));
  });

  it('finds by id and forgets removed records', () => {
    const c = collection(3);
    expect(c.get('id-2')?.n).toBe(2);
    expect(c.remove('id-2')).toBe(true);
    expect(c.get('id-2')).toBeUndefined();
    expect(c.size).toBe(2);
  });
});
