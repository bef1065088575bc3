import { LruMap } from '../limits/lru-map.js';
import type { CapturedTable, ChangeCapture } from '../store/change-capture.js';

/**
 * An OAuth table that reports to a change capture: each record it hands out (`get`, `touch`),
 * puts, removes or evicts, so a revocation or a redeemed code made in place reaches the log.
 * Walking the table (`for … of`, `values()`) reports nothing: the server walks it only to
 * read, to drop (reported) or to revoke what is already dead (the same again after a restart).
 */
export class CapturedLruMap<V> extends LruMap<string, V> implements CapturedTable {
  readonly address: string;
  private readonly capture: ChangeCapture;
  /** Fields that change on every use (a last-used time): logged, but no answer waits for the disk for them. */
  readonly volatile: readonly string[];

  constructor(capacity: number, capture: ChangeCapture, name: string, volatile: readonly string[] = []) {
    let self: CapturedLruMap<V> | undefined;
    super(capacity, (key, value) => self?.capture.touch(self, key, value));
    self = this;
    this.capture = capture;
    this.address = `"o","${name}"`;
    this.volatile = volatile;
  }

  override get(key: string): V | undefined {
    const value = super.get(key);
    if (value !== undefined && this.capture.enabled) this.capture.touch(this, key, value);
    return value;
  }

  override touch(key: string): V | undefined {
    const value = super.touch(key);
    if (value !== undefined && this.capture.enabled) this.capture.movedToEnd(this, key, value);
    return value;
  }

  override set(key: string, value: V): this {
    if (this.capture.enabled) {
      const before = super.get(key);
      if (before === undefined) this.capture.touch(this, key, undefined);
      else this.capture.movedToEnd(this, key, before);
    }
    return super.set(key, value);
  }

  override delete(key: string): boolean {
    if (this.capture.enabled) this.capture.touch(this, key, super.get(key));
    return super.delete(key);
  }

  override clear(): void {
    this.capture.emptiedTable(this);
    super.clear();
  }

  peek(key: string): unknown {
    return super.get(key);
  }

  comparable(value: unknown): string {
    return JSON.stringify(value);
  }

  putValue(_key: string, value: unknown): string {
    return JSON.stringify(value);
  }
}
