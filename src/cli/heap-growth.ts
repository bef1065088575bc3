import { setFlagsFromString } from 'node:v8';

const MiB = 1024 * 1024;
/**
 * Past this much heap in use, the heap grows by a bounded share between two full collections.
 * V8 otherwise lets the old generation grow up to four times what survived the last one before
 * collecting again: a million builds (about 750 MiB alive while all are in the pipeline) took
 * the process past 1.4 GiB of RSS.
 */
export const LARGE_HEAP = 128 * MiB;
/** Below this (a reset, a large history let go) V8's own growing comes back: small heaps collect cheaply as they are. */
export const SMALL_AGAIN = 96 * MiB;
/**
 * The room the heap may take past what it holds, while large: HEADROOM, as a share of the heap
 * in use, between MIN_PERCENT and MAX_PERCENT (stepped by STEP_PERCENT, so that a flag is set
 * only when the share really moves). 100% at 128 MiB, 12% at 1 GiB: the peak stays within a
 * tenth or so of what is alive. A full collection costs about 2 ms a MiB alive and comes once
 * that room has been promoted into, which only a large heap under heavy promotion notices;
 * small heaps keep V8's own growing, which holds that cost low.
 */
export const HEADROOM = 128 * MiB;
export const MIN_PERCENT = 10;
export const MAX_PERCENT = 100;
const STEP_PERCENT = 5;

/** The growing percent for a large heap with `heapUsed` bytes in use. */
export function growingPercent(heapUsed: number): number {
  const share = Math.floor(((HEADROOM / heapUsed) * 100) / STEP_PERCENT) * STEP_PERCENT;
  return Math.min(MAX_PERCENT, Math.max(MIN_PERCENT, share));
}
const USER_FLAG = /--heap[-_]growing[-_]percent/;

/**
 * The heap's growing policy of `content-sim serve`, fed by the memory gauge's samples. V8
 * reads `--heap-growing-percent` each time it sets the next collection's limit, so the flag
 * can change while the process runs (unlike the heap's limit: a process cannot move its own
 * `--max-old-space-size`, and starting a second process to give it one would double the
 * start). One given by the user (node flags or NODE_OPTIONS) is left alone.
 */
export class HeapGrowth {
  /** The percent set, or 0 while V8's own growing applies. */
  private percent = 0;
  private readonly userChose: boolean;

  constructor(
    private readonly setFlags: (flags: string) => void = setFlagsFromString,
    nodeFlags = `${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`,
  ) {
    this.userChose = USER_FLAG.test(nodeFlags);
  }

  /** The growing percent in force: 0 while V8's own growing applies. */
  get growingPercent(): number {
    return this.percent;
  }

  /** Takes a sample of the heap in use (bytes): bounds the growth past LARGE_HEAP, frees it again below SMALL_AGAIN. */
  update(heapUsed: number): void {
    if (this.userChose) return;
    // 0 is V8's default: its own growing factor, from the speeds of collection and allocation.
    const large = heapUsed > LARGE_HEAP || (this.percent > 0 && heapUsed >= SMALL_AGAIN);
    const percent = large ? growingPercent(heapUsed) : 0;
    if (percent === this.percent) return;
    this.setFlags(`--heap-growing-percent=${percent}`);
    this.percent = percent;
  }
}
