/**
 * A plain Map that keeps about `capacity` entries: once it holds a quarter more, its oldest
 * entries (first set) go in one pass, down to `capacity`. The trimming is paid once per
 * `capacity / 4` additions, so a `set` costs what a Map's does, and nothing is ever moved.
 */
export class BoundedMap<K, V> {
  private readonly map = new Map<K, V>();
  private readonly high: number;

  constructor(readonly capacity: number) {
    this.high = capacity + Math.max(1, capacity >> 2);
  }

  get(key: K): V | undefined {
    return this.map.get(key);
  }

  has(key: K): boolean {
    return this.map.has(key);
  }

  delete(key: K): boolean {
    return this.map.delete(key);
  }

  get size(): number {
    return this.map.size;
  }

  set(key: K, value: V): void {
    this.map.set(key, value);
    if (this.map.size < this.high) return;
    let drop = this.map.size - this.capacity;
    for (const oldest of this.map.keys()) {
      if (drop-- <= 0) break;
      this.map.delete(oldest);
    }
  }

  [Symbol.iterator](): IterableIterator<[K, V]> {
    return this.map[Symbol.iterator]();
  }
}
