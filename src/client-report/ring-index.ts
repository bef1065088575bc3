import { fmix32 } from './digest.js';
/**
 * Up to `capacity` keys, each given a slot (0 … capacity − 1) in the order they come, the
 * oldest giving up its slot to a new key once every slot is taken; found again through an
 * open-addressing index of at least twice as many cells. Made once: finding and claiming
 * allocate nothing, so a table kept in arrays by slot beside it costs no garbage per request
 * (a Map whose oldest entries are deleted reallocates its storage as the deletions pile up).
 */
export class RingIndex<K extends string | number> {
  private readonly keys: (K | undefined)[];
  private readonly hashes: Int32Array;
  /** Each cell: a slot + 1, or 0 when empty. Linear probing, with deletion by backward shift (no tombstones). */
  private readonly cells: Int32Array;
  private readonly mask: number;
  private next = 0;

  constructor(readonly capacity: number) {
    let size = 4;
    while (size < capacity * 2) size <<= 1;
    this.cells = new Int32Array(size);
    this.mask = size - 1;
    this.hashes = new Int32Array(capacity);
    this.keys = new Array<K | undefined>(capacity).fill(undefined);
  }

  /**
   * The key's slot when it is in the index (0 or more); otherwise the key takes the next slot in
   * turn (from its oldest key, if it had one) and the answer is `-1 - slot`: the caller fills it.
   */
  slotOf(key: K): number {
    const hash = hashOf(key);
    const mask = this.mask;
    let i = hash & mask;
    for (let cell = this.cells[i] as number; cell !== 0; cell = this.cells[i] as number) {
      // The hashes first: they sit together, where the keys would each be a string to load and compare.
      if (this.hashes[cell - 1] === hash && this.keys[cell - 1] === key) return cell - 1;
      i = (i + 1) & mask;
    }
    const slot = this.next;
    this.next = slot + 1 === this.capacity ? 0 : slot + 1;
    if (this.keys[slot] !== undefined) {
      this.vacate(slot);
      // The cells moved back may have filled the empty cell found: look again from the key's home.
      i = hash & mask;
      while (this.cells[i] !== 0) i = (i + 1) & mask;
    }
    this.keys[slot] = key;
    this.hashes[slot] = hash;
    this.cells[i] = slot + 1;
    return -1 - slot;
  }

  /** Takes the slot's key out of the index, moving back the cells after it that probed past it. */
  private vacate(slot: number): void {
    const mask = this.mask;
    const cells = this.cells;
    let hole = (this.hashes[slot] as number) & mask;
    while (cells[hole] !== slot + 1) hole = (hole + 1) & mask;
    for (let j = (hole + 1) & mask; cells[j] !== 0; j = (j + 1) & mask) {
      const cell = cells[j] as number;
      const home = (this.hashes[cell - 1] as number) & mask;
      // A cell stays when its home lies cyclically after the hole and no later than the cell.
      const stays = hole < j ? hole < home && home <= j : hole < home || home <= j;
      if (stays) continue;
      cells[hole] = cell;
      hole = j;
    }
    cells[hole] = 0;
    this.keys[slot] = undefined;
  }
}

/**
 * A key's cell hash. A string is hashed by its length and its first and last eight characters
 * (all of one of 16 or fewer), which spreads keys, dates with a sequence and paths with an id apart;
 * the index compares whole keys, so a clash costs a probe, never a wrong answer.
 */
function hashOf(key: string | number): number {
  let hash = 0x811c9dc5;
  if (typeof key === 'number') {
    hash = Math.imul(hash ^ (key | 0), 0x01000193);
    hash = Math.imul(hash ^ ((key / 4_294_967_296) | 0), 0x01000193);
  } else {
    const length = key.length;
    hash ^= length;
    const head = length <= 16 ? length : 8;
    for (let i = 0; i < head; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
    for (let i = length <= 16 ? length : length - 8; i < length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  }
  // Every bit of the input moves the low bits, which pick the cell.
  return fmix32(hash);
}
