/**
 * `every-write`: an answer that reports a change is sent once the change is in the log on disk
 * (fsync), one fsync shared by every answer waiting meanwhile (group commit). `interval`: the
 * log is written as changes come, without waiting, and flushed to disk every interval.
 */
export type Durability = 'every-write' | 'interval';

export interface DurableStateOptions {
  path: string;
  durability: Durability;
  /** interval: how often the log is flushed to disk. Both: how often a checkpoint is considered. */
  intervalMs: number;
  onError: (message: string) => void;
  /** While storage fails, how often the waiting changes are tried again (default: Retry-After). */
  retryMs?: number;
}

/** What the changes collected for one answer are, for the wait below. */
export interface CollectedChanges {
  /** The whole simulation was replaced, or a replacement is being saved. */
  replaced: boolean;
  recordsChanged: boolean;
  /** Watched values whose change must reach the disk now. */
  due: string[];
  /** Enough ids were issued that their streams' position must be on disk. */
  idsDue: boolean;
  failing: boolean;
  streamsNearlyExhausted: () => boolean;
}

/**
 * Whether an answer waits for its changes to be on disk. A replacement always does; changed
 * records do in every-write mode, while storage fails, or when a value is due; a due move of
 * the id streams alone does unless storage fails (then only when the reserve runs out).
 */
export function mustWait(durability: Durability, c: CollectedChanges): boolean {
  const streamsOnly = c.due.every((name) => name === 'streams');
  if (c.replaced) return true;
  if (c.recordsChanged || !streamsOnly) return durability === 'every-write' || c.failing || c.due.length > 0 || c.idsDue;
  if (c.due.length > 0 || c.idsDue) return !c.failing || c.streamsNearlyExhausted();
  return false;
}
