/**
 * A Map of at most `capacity` entries that forgets the least recently set one beyond it:
 * `set` (a new entry or a changed one) moves the key to the recent end, `touch` does so
 * without a change, and the oldest goes first. Map order is the recency list, so every
 * step is O(1) and nothing is ever cleared wholesale. `onEvict` hears of each forgotten
 * entry, so dependants can let go too. A plain Map otherwise, so it saves and restores like one.
 */
export class LruMap<K, V> extends Map<K, V> {
  constructor(
    readonly capacity: number,
    private readonly onEvict?: (key: K, value: V) => void,
  ) {
    super();
  }

  override set(key: K, value: V): this {
    if (super.has(key)) super.delete(key);
    super.set(key, value);
    while (this.size > this.capacity) {
      const [oldKey, oldValue] = super.entries().next().value as [K, V];
      super.delete(oldKey);
      this.onEvict?.(oldKey, oldValue);
    }
    return this;
  }

  /** Marks the entry as just used; answers it (or undefined). */
  touch(key: K): V | undefined {
    const value = super.get(key);
    if (value !== undefined) {
      super.delete(key);
      super.set(key, value);
    }
    return value;
  }
}
