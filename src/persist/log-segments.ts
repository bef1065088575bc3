import { writeCheckpoint } from './checkpoint.js';
import { listSegments, recordLine, removeSegment, segmentPath, SegmentWriter, syncDirectoryLater } from './log-file.js';
import { storageStep } from './storage-failure.js';

/**
 * The log's segments: the one being written, and the next, made ahead (created exclusively),
 * so that no rotation or replacement has to create a file at that moment and a name someone
 * else took is never used.
 */
export class LogSegments {
  current: SegmentWriter;
  /** The segment after `current`, made ahead; null while it cannot be made. */
  spare: SegmentWriter | null = null;
  /** Records written to `current` and not yet flushed (interval mode). */
  unsynced = false;
  /** The directory entry of the newest segment on its way to the disk: its records count as durable once it is. */
  private directorySynced: Promise<void> = Promise.resolve();

  constructor(
    private readonly path: string,
    n: number,
  ) {
    this.current = new SegmentWriter(path, n);
  }

  get nextPath(): string {
    return segmentPath(this.path, this.current.n + 1);
  }

  /** Creates the next segment ahead, exclusively; throws what stopped it (a full disk, a name taken). */
  makeSpare(): void {
    try {
      this.spare = new SegmentWriter(this.path, this.current.n + 1);
    } catch (error) {
      this.spare = null;
      throw error;
    }
  }

  /**
   * A record of `entries` appended to the current segment; with `sync`, on disk before this
   * resolves, else flushed later. A record that cannot be flushed is cut off again: it is
   * refused, and a restart must not bring it back.
   */
  async write(entries: string[], sync: (() => Promise<void>) | null): Promise<void> {
    const segment = this.current;
    const start = segment.bytes;
    if (entries.length > 0) await segment.append(recordLine(entries));
    if (!sync) {
      this.unsynced ||= entries.length > 0;
      return;
    }
    try {
      await sync();
    } catch (error) {
      try {
        segment.cutTo(start);
      } catch {
        // the reload after the failure reads what the file holds; the step is refused either way
      }
      throw storageStep('sync', segment.path, error);
    }
  }

  /** The current segment, and the directory entry of the newest, on disk. */
  async sync(): Promise<void> {
    this.unsynced = false;
    try {
      await Promise.all([this.current.sync(), this.directorySynced]);
    } catch (error) {
      this.unsynced = true;
      // The next sync tries the directory again too.
      this.syncDirectorySoon();
      throw error;
    }
  }

  /** Later records go to the segment made ahead; the old one is flushed and closed (nothing writes to it now). False without one. */
  rotate(): boolean {
    const next = this.spare;
    if (!next) return false;
    const old = this.current;
    this.current = next;
    this.spare = null;
    this.unsynced = false;
    this.syncDirectorySoon();
    old.sync().finally(() => old.close()).catch(() => undefined);
    return true;
  }

  /**
   * A replacement of the whole simulation: a checkpoint of it, naming the segment made ahead, in
   * place of the old one. `beforeRename` writes the records made on it meanwhile to that segment
   * (given to it), on disk before the rename: the moment the replacement takes effect. A failure
   * before it leaves the files as they were (the segment emptied again). Answers the bytes written.
   */
  async replace(pieces: (walSegment: number) => Iterator<string>, beforeRename: (next: SegmentWriter) => Promise<void>): Promise<number> {
    const next = this.spare;
    if (!next) throw storageStep('create', this.nextPath, new Error('the next log segment cannot be made'));
    let bytes: number;
    try {
      bytes = await writeCheckpoint(this.path, pieces(next.n), () => false, () => beforeRename(next));
    } catch (error) {
      try {
        next.empty();
      } catch {
        // Cannot even be emptied: never written to again.
        next.close();
        this.spare = null;
      }
      throw storageStep('checkpoint', this.path, error);
    }
    const old = this.current;
    this.current = next;
    this.spare = null;
    this.unsynced = false;
    old.close();
    return bytes;
  }

  /** Once a checkpoint naming segment `n` is in place, and its name on disk: the segments before it go. */
  async dropBefore(n: number, onError?: (message: string) => void): Promise<void> {
    try {
      await syncDirectoryLater(this.path);
    } catch (error) {
      if (!onError) throw error;
      // In effect already (the live state and the file agree); only a power loss could undo it.
      onError(`content-sim: cannot flush the directory of ${this.path}: ${(error as Error).message}\n`);
      return;
    }
    for (const m of listSegments(this.path)) if (m < n) removeSegment(this.path, m);
  }

  close(): void {
    this.current.close();
    this.spare?.close();
  }

  private syncDirectorySoon(): void {
    const synced = syncDirectoryLater(this.path);
    synced.catch(() => undefined);
    this.directorySynced = synced;
  }
}
