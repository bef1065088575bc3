import { basename, dirname } from 'node:path';
import { crc32 } from 'node:zlib';
import { readPrivateFile, UntrustedFileError, writeAllSync } from './private-file.js';
import { constants, CREATE_EXCLUSIVE, NO_FOLLOW, storageIo as io } from './storage-io.js';

/**
 * The write-ahead log beside a state file: numbered segments `<state file>.wal-<n>`, each a
 * run of records, one a line: the CRC-32 of the JSON in 8 hex digits, a space, the JSON (an
 * array of change entries), a newline. A record is whole or it is not there: a crash while
 * one is written leaves a torn last line, which the next start drops (and only that one).
 */

export function segmentPath(statePath: string, n: number): string {
  return `${statePath}.wal-${n}`;
}

/** The numbers of the segments beside `statePath`, ascending. */
export function listSegments(statePath: string): number[] {
  const base = `${basename(statePath)}.wal-`;
  let names: string[];
  try {
    names = io.readdirSync(dirname(statePath));
  } catch {
    return [];
  }
  return names
    .filter((name) => name.startsWith(base) && /^[1-9][0-9]{0,15}$/.test(name.slice(base.length)))
    .map((name) => Number(name.slice(base.length)))
    .sort((a, b) => a - b);
}

export function removeSegment(statePath: string, n: number): void {
  try {
    io.unlinkSync(segmentPath(statePath, n));
  } catch {
    // already gone
  }
}

/** One record as a line of the log. */
export function recordLine(entries: readonly string[]): Buffer {
  const json = `[${entries.join(',')}]`;
  const body = Buffer.from(json, 'utf8');
  const sum = crc32(body).toString(16).padStart(8, '0');
  return Buffer.concat([Buffer.from(`${sum} `, 'latin1'), body, Buffer.from('\n', 'latin1')]);
}

export class LogFileError extends Error {}

/** The last record of the log is whole (its newline written) but fails its check: changed after it was written. */
export class DamagedTailError extends LogFileError {
  constructor(readonly file: string, readonly offset: number) {
    super(`the state log ${file} is damaged at byte ${offset}: its last record is whole but fails its check (a torn write never ends in a newline); start with --accept-damaged-tail to drop that record and go on, or move the state file and its logs away`);
  }
}

/** A segment's records, and where its last whole record ends (a torn tail is cut there). */
export interface ReadSegment {
  records: unknown[][];
  /** Where each record starts, in bytes. */
  starts: number[];
  /** Bytes of whole records; less than the file's size when its last record is torn. */
  goodBytes: number;
  torn: boolean;
  /** The last record was whole but failed its check, and its loss was accepted: where it began. */
  damagedAt?: number;
}

/** Reads a segment; `last`: the newest, whose last record alone may be torn. */
export function readSegment(statePath: string, n: number, maxBytes: number, last: boolean, options: { acceptDamagedTail?: boolean } = {}): ReadSegment {
  const path = segmentPath(statePath, n);
  let bytes: Uint8Array | undefined;
  try {
    bytes = readPrivateFile(path, maxBytes);
  } catch (error) {
    if (error instanceof UntrustedFileError) throw new LogFileError(`the state log ${error.message}; not loaded`);
    throw error;
  }
  if (bytes === undefined) return { records: [], starts: [], goodBytes: 0, torn: false };
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const records: unknown[][] = [];
  const starts: number[] = [];
  let at = 0;
  while (at < buffer.length) {
    const end = buffer.indexOf(0x0a, at);
    const record = end === -1 ? undefined : parseLine(buffer.subarray(at, end));
    if (record === undefined) {
      // A bad line with whole records after it is damage, not a crash mid-write: refuse it.
      const rest = end === -1 ? -1 : buffer.indexOf(0x0a, end + 1);
      if (!last || rest !== -1) throw new LogFileError(`the state log ${path} is damaged at byte ${at} (not its last record); move the state file and its logs away to start afresh`);
      // A whole last line (its newline written) that fails its check was written and then
      // changed: damage, not a torn write. Its loss is accepted only when asked for.
      if (end !== -1) {
        if (!options.acceptDamagedTail) throw new DamagedTailError(path, at);
        return { records, starts, goodBytes: at, torn: true, damagedAt: at };
      }
      return { records, starts, goodBytes: at, torn: true };
    }
    records.push(record);
    starts.push(at);
    at = end + 1;
  }
  return { records, starts, goodBytes: at, torn: false };
}

function parseLine(line: Buffer): unknown[] | undefined {
  if (line.length < 10 || line[8] !== 0x20) return undefined;
  const body = line.subarray(9);
  if (crc32(body).toString(16).padStart(8, '0') !== line.subarray(0, 8).toString('latin1')) return undefined;
  try {
    const parsed: unknown = JSON.parse(body.toString('utf8'));
    return Array.isArray(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** Cuts a torn last record off, so that later segments never follow a torn one. */
export function truncateSegment(statePath: string, n: number, bytes: number): void {
  const fd = io.openSync(segmentPath(statePath, n), constants.O_WRONLY | NO_FOLLOW);
  try {
    io.ftruncateSync(fd, bytes);
  } finally {
    io.closeSync(fd);
  }
}

/** A segment open for appending: created private (0600), never through a link, and only if new. */
export class SegmentWriter {
  readonly n: number;
  readonly path: string;
  private readonly fd: number;
  /** Bytes of whole records written; what lies past them (a failed write) is cut off before the next. */
  bytes = 0;
  /** A write or a cut failed: the tail past `bytes` must be cut off before anything more is appended. */
  private ragged = false;

  constructor(statePath: string, n: number) {
    this.n = n;
    this.path = segmentPath(statePath, n);
    this.fd = io.openSync(this.path, CREATE_EXCLUSIVE | constants.O_APPEND, 0o600);
  }

  /** Appends a record; a failed write (a full disk) is cut off again, so no torn record ever has others after it. */
  append(data: Buffer): Promise<void> {
    const start = this.bytes;
    return new Promise((resolve, reject) => {
      const failed = (error: Error) => {
        this.ragged = true;
        io.ftruncate(this.fd, start, (cut) => {
          if (!cut) this.ragged = false;
          reject(error);
        });
      };
      const from = (offset: number) =>
        io.write(this.fd, data, offset, data.length - offset, null, (error, written) => {
          if (error) return failed(error);
          if (written <= 0) return failed(Object.assign(new Error('no byte could be written'), { code: 'ENOSPC' }));
          if (offset + written < data.length) return from(offset + written);
          this.bytes = start + data.length;
          resolve();
        });
      if (!this.ragged) return from(0);
      // What a failed write left: cut off first, or nothing is written.
      io.ftruncate(this.fd, start, (cut) => {
        if (cut) return reject(cut);
        this.ragged = false;
        from(0);
      });
    });
  }

  /** Appends and flushes before going on: for the one record a start writes before it answers anything. */
  appendNow(data: Buffer): void {
    writeAllSync(this.fd, data);
    this.bytes += data.length;
    io.fdatasyncSync(this.fd);
  }

  sync(): Promise<void> {
    return new Promise((resolve, reject) => io.fdatasync(this.fd, (error) => (error ? reject(error) : resolve())));
  }

  /** Cut back to `bytes`: what was written past it is taken back (a record whose flush failed). */
  cutTo(bytes: number): void {
    this.ragged = true;
    this.bytes = Math.min(this.bytes, bytes);
    io.ftruncateSync(this.fd, this.bytes);
    this.ragged = false;
  }

  /** Back to empty: what a replacement that did not take place had written to it. */
  empty(): void {
    this.cutTo(0);
  }

  close(): void {
    try {
      io.closeSync(this.fd);
    } catch {
      // closed already
    }
  }
}

/** A directory entry made or removed must reach the disk too. */
export function syncDirectory(statePath: string): void {
  const dir = io.openSync(dirname(statePath), 'r');
  try {
    io.fsyncSync(dir);
  } finally {
    io.closeSync(dir);
  }
}

/** The same, off the event loop. */
export function syncDirectoryLater(statePath: string): Promise<void> {
  return new Promise((resolve, reject) =>
    io.open(dirname(statePath), 'r', (error, dir) => {
      if (error) return reject(error);
      io.fsync(dir, (syncError) => io.close(dir, () => (syncError ? reject(syncError) : resolve())));
    }),
  );
}
