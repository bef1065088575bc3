import { describe, expect, it } from 'vitest';
import { Rng } from '../random/rng.js';
import { runAtOnce } from '../state/steps.js';
import { OrderedCollection } from './ordered-collection.js';

interface Row {
  id: string;
  kind: string;
}

function rows(n: number, kindOf: (i: number) => string): OrderedCollection<Row> {
  const c = new OrderedCollection<Row>('row', { kind: (r) => r.kind });
  for (let i = 1; i <= n; i++) c.add({ id: `r${i}`, kind: kindOf(i) });
  return c;
}

describe('a collection indexed on a field that never changes', () => {
  it('pages the records of one value newest first, with cursors, reading only those records', () => {
    const c = rows(10_000, (i) => (i % 1000 === 0 ? 'rare' : 'common'));
    let read = 0;
    const first = c.pageBy('kind', 'rare', 4, undefined, () => (read++, true));
    expect(first.data.map((r) => r.id)).toEqual(['r10000', 'r9000', 'r8000', 'r7000']);
    expect(read).toBe(5); // the four, and one more to know a next page exists
    const second = c.pageBy('kind', 'rare', 4, first.nextCursor!);
    expect(second.data.map((r) => r.id)).toEqual(['r6000', 'r5000', 'r4000', 'r3000']);
    const last = c.pageBy('kind', 'rare', 4, second.nextCursor!);
    expect([last.data.map((r) => r.id), last.nextCursor]).toEqual([['r2000', 'r1000'], null]);
    expect(c.pageBy('kind', 'none', 4, undefined)).toEqual({ data: [], nextCursor: null });
    // A cursor of the unfiltered list works on the filtered one too: positions are shared.
    const plain = c.page(1, undefined);
    expect(c.pageBy('kind', 'rare', 1, plain.nextCursor!).data[0]!.id).toBe('r9000');
  });

  it('forgets removed records, and is rebuilt by a restore and emptied by a clear', () => {
    const c = rows(6, (i) => (i % 2 ? 'odd' : 'even'));
    c.remove('r4');
    expect(c.valuesBy('kind', 'even').map((r) => r.id)).toEqual(['r2', 'r6']);
    const copy = new OrderedCollection<Row>('row', { kind: (r) => r.kind });
    runAtOnce(copy.restoreSteps(c.snapshot()));
    expect(copy.pageBy('kind', 'odd', 10, undefined).data.map((r) => r.id)).toEqual(['r5', 'r3', 'r1']);
    copy.clear();
    expect(copy.valuesBy('kind', 'odd')).toEqual([]);
    copy.add({ id: 'r9', kind: 'odd' });
    expect(copy.valuesBy('kind', 'odd').map((r) => r.id)).toEqual(['r9']);
  });

  it('refuses a field it does not index: a programming error, not a slow scan', () => {
    expect(() => rows(1, () => 'x').pageBy('other', 'x', 1, undefined)).toThrow(/no index on other/);
  });
});

describe('a collection whose positions run without a gap (kept implicit) and then do not', () => {
  it('pages, finds and saves exactly as a plain list of positions would, through adds, removals, clears and restores', () => {
    const rng = new Rng('collection');
    let c = new OrderedCollection<Row>('row', { kind: (r) => r.kind });
    // The model: records with their positions, ascending.
    let model: Array<{ seq: number; row: Row }> = [];
    let next = 1;
    const removed: string[] = [];
    for (let step = 0; step < 3_000; step++) {
      const roll = rng.int(0, 99);
      if (roll < 70 || model.length === 0) {
        const row = { id: `r${step}`, kind: rng.bool(0.3) ? 'a' : 'b' };
        c.add(row);
        model.push({ seq: next++, row });
      } else if (roll < 90) {
        // Often the newest (the gap-free case), sometimes any.
        const at = rng.bool(0.5) ? model.length - 1 : rng.int(0, model.length - 1);
        expect(c.remove(model[at]!.row.id)).toBe(true);
        removed.push(model[at]!.row.id);
        model.splice(at, 1);
      } else if (roll < 93) {
        c.clear();
        removed.push(...model.map((m) => m.row.id));
        model = [];
      } else {
        const saved = JSON.parse(JSON.stringify(c.snapshot()));
        expect(saved.entries).toEqual(model.map((m) => [m.seq, m.row]));
        c = new OrderedCollection<Row>('row', { kind: (r) => r.kind });
        runAtOnce(c.restoreSteps(saved));
      }
      if (step % 25 !== 0) continue;
      expect(c.size).toBe(model.length);
      for (const m of model) expect(c.get(m.row.id)?.id).toBe(m.row.id);
      for (const id of removed) expect(c.get(id)).toBeUndefined();
      // Every page of 7, newest first, through cursors, on the whole list and on one kind.
      for (const kind of [undefined, 'a']) {
        const expected = model.filter((m) => kind === undefined || m.row.kind === kind).map((m) => m.row.id).reverse();
        const seen: string[] = [];
        let cursor: string | undefined;
        do {
          const page = kind === undefined ? c.page(7, cursor) : c.pageBy('kind', kind, 7, cursor);
          seen.push(...page.data.map((r) => r.id));
          cursor = page.nextCursor ?? undefined;
        } while (cursor !== undefined);
        expect(seen).toEqual(expected);
      }
    }
  });
});
