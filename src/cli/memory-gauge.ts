import { getHeapStatistics } from 'node:v8';
import { DEFAULT_CONTENT_CACHE_BYTES } from '../builds/content-cache.js';
import type { Capacity } from '../limits/capacity.js';
import type { HeapGrowth } from './heap-growth.js';

const MiB = 1024 * 1024;
/** Memory moves slowly next to requests, and a sample costs microseconds: four samples a second... */
const SAMPLE_MS = 250;
/** ...and fifty once past this share of a budget, where a burst of writes could cross it between two. */
const NEAR_SAMPLE_MS = 20;
const NEAR_SHARE = 0.7;
/** The share of the old generation's limit past which the process is near "heap out of memory". */
export const HEAP_SHARE = 0.85;
/**
 * V8's heap limit counts the young generation's reservation (48 MiB on Node 20 and 22, 192 MiB
 * on Node 24) on top of the old generation's, where records live and where "heap out of
 * memory" strikes. The old generation's own limit is read from `--max-old-space-size` when the
 * process was given one; otherwise it is the heap limit less the larger reservation.
 */
const YOUNG_GENERATION = 192 * MiB;
const OLD_SPACE_FLAG = /--max[-_]old[-_]space[-_]size[= ](\d+)/;

export interface MemorySample {
  rss: number;
  heapUsed: number;
  /** What the old generation may hold before V8 aborts. */
  oldLimit: number;
}

export function sampleMemory(): MemorySample {
  const heap = getHeapStatistics();
  return { rss: process.memoryUsage.rss(), heapUsed: heap.used_heap_size, oldLimit: oldGenerationLimit(heap.heap_size_limit) };
}

function oldGenerationLimit(heapLimit: number, flags = `${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`): number {
  const given = OLD_SPACE_FLAG.exec(flags);
  if (given) return Math.min(heapLimit, Number(given[1]) * MiB);
  return Math.max(heapLimit / 2, heapLimit - YOUNG_GENERATION);
}

/**
 * Keeps `capacity` up to date: exceeded while the resident memory is above `maxMemoryMiB`
 * (when given) or the heap above 85% of V8's limit, whichever comes first, so the simulator
 * answers 503 CAPACITY_EXCEEDED instead of dying of "heap out of memory".
 * Each sample also goes to `heapGrowth`, when given, which bounds the heap's growth once large.
 * Answers the function that stops it.
 */
export function startMemoryGauge(capacity: Capacity, maxMemoryMiB: number | undefined, sample: () => MemorySample = sampleMemory, heapGrowth?: HeapGrowth): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const check = () => {
    let near = false;
    try {
      near = measure();
    } catch {
      // Reading the resident memory opens /proc: with every descriptor in use it throws EMFILE.
      // The last verdict stands until a sample can be taken again; the gauge never stops.
    }
    timer = setTimeout(check, near ? NEAR_SAMPLE_MS : SAMPLE_MS);
    timer.unref();
  };
  /** Takes a sample and sets `capacity`; answers whether a budget is near. */
  const measure = (): boolean => {
    const { rss, heapUsed, oldLimit } = sample();
    heapGrowth?.update(heapUsed);
    const heapBudget = oldLimit * HEAP_SHARE;
    const rssBudget = maxMemoryMiB === undefined ? Infinity : maxMemoryMiB * MiB;
    const overRss = rss > rssBudget;
    const overHeap = heapUsed > heapBudget;
    capacity.exceeded = overRss || overHeap;
    const byHeap = overHeap && !overRss;
    capacity.usedMiB = Math.round((byHeap ? heapUsed : rss) / MiB);
    capacity.limitMiB = Math.round(byHeap ? heapBudget / MiB : (maxMemoryMiB ?? heapBudget / MiB));
    // Near a budget, a busy server can fill what is left between two slow samples: look closely there.
    return heapUsed > heapBudget * NEAR_SHARE || rss > rssBudget * NEAR_SHARE;
  };
  check();
  return () => clearTimeout(timer);
}

/** The generated-content cache for this process: its default, or an eighth of a small heap, so reads alone never exhaust it. */
export function contentCacheBytesFor(heapLimit = getHeapStatistics().heap_size_limit, flags?: string): number {
  return Math.min(DEFAULT_CONTENT_CACHE_BYTES, Math.floor(oldGenerationLimit(heapLimit, flags) / 8));
}
