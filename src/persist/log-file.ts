import { close, closeSync, constants, fdatasync, fdatasyncSync, fstatSync, fsync, fsyncSync, ftruncate, ftruncateSync, open, openSync, readdirSync, unlinkSync, write, writeSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { crc32 } from 'node:zlib';
import { readPrivateFile, UntrustedFileError } from '../cli/private-file.js';

/**
 * The write-ahead log beside a state file: numbered segments `<state file>.wal-<n>`, each a
 * run of records, one a line: the CRC-32 of the JSON in 8 hex digits, a space, the JSON (an
 * array of change entries), a newline. A record is whole or it is not there: a crash while
 * one is written leaves a torn last line, which the next start drops (and only that one).
 */

const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;

export function segmentPath(statePath: string, n: number): string {
  return `${statePath}.wal-${n}`;
}

/** The numbers of the segments beside `statePath`, ascending. */
export function listSegments(statePath: string): number[] {
  const base = `${basename(statePath)}.wal-`;
  let names: string[];
  try {
    names = readdirSync(dirname(statePath));
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
    unlinkSync(segmentPath(statePath, n));
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

/** A segment's records, and where its last whole record ends (a torn tail is cut there). */
export interface ReadSegment {
  records: unknown[][];
  /** Where each record starts, in bytes. */
  starts: number[];
  /** Bytes of whole records; less than the file's size when its last record is torn. */
  goodBytes: number;
  torn: boolean;
}

/** Reads a segment; `last`: the newest, whose last record alone may be torn. */
export function readSegment(statePath: string, n: number, maxBytes: number, last: boolean): ReadSegment {
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
  const fd = openSync(segmentPath(statePath, n), constants.O_WRONLY | NO_FOLLOW);
  try {
    ftruncateSync(fd, bytes);
  } finally {
    closeSync(fd);
  }
}

/** A segment open for appending: created private (0600), never through a link, and only if new. */
export class SegmentWriter {
  readonly n: number;
  private readonly fd: number;
  bytes = 0;

  constructor(statePath: string, n: number) {
    this.n = n;
    this.fd = openSync(segmentPath(statePath, n), constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_APPEND | NO_FOLLOW, 0o600);
    this.bytes = fstatSync(this.fd).size;
  }

  /** Appends a record; a failed write (a full disk) is cut off again, so no torn record ever has others after it. */
  append(data: Buffer): Promise<void> {
    const start = this.bytes;
    this.bytes += data.length;
    return new Promise((resolve, reject) => {
      const from = (offset: number) =>
        write(this.fd, data, offset, data.length - offset, null, (error, written) => {
          if (error) {
            this.bytes = start;
            ftruncate(this.fd, start, () => reject(error));
            return;
          }
          if (offset + written < data.length) return from(offset + written);
          resolve();
        });
      from(0);
    });
  }

  /** Appends and flushes before going on: for the one record a start writes before it answers anything. */
  appendNow(data: Buffer): void {
    writeSync(this.fd, data);
    this.bytes += data.length;
    fdatasyncSync(this.fd);
  }

  sync(): Promise<void> {
    return new Promise((resolve, reject) => fdatasync(this.fd, (error) => (error ? reject(error) : resolve())));
  }

  close(): void {
    closeSync(this.fd);
  }
}

/** A directory entry made or removed must reach the disk too. */
export function syncDirectory(statePath: string): void {
  const dir = openSync(dirname(statePath), 'r');
  try {
    fsyncSync(dir);
  } finally {
    closeSync(dir);
  }
}

/** The same, off the event loop. */
export function syncDirectoryLater(statePath: string): Promise<void> {
  return new Promise((resolve, reject) =>
    open(dirname(statePath), 'r', (error, dir) => {
      if (error) return reject(error);
      fsync(dir, (syncError) => close(dir, () => (syncError ? reject(syncError) : resolve())));
    }),
  );
}
