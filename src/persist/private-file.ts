import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { CREATE_EXCLUSIVE, constants, NO_FOLLOW, storageIo as io } from './storage-io.js';

/**
 * A file only its owner can touch, in a directory others may share (`/tmp`, a CI workspace):
 * written through a temporary file of an unguessable name, created exclusively, never through
 * a link, with mode 0600 from its first byte, then renamed over the old one; read only when
 * it is a regular file of ours that nobody else can write.
 */

const PRIVATE = 0o600;

/** Why a file cannot be trusted: the caller prints it and does not start. */
export class UntrustedFileError extends Error {}

/** `state.json.<32 hex>.tmp`: the shape of our own temporaries, and only of those. */
export function temporaryName(path: string): string {
  return `${path}.${randomBytes(16).toString('hex')}.tmp`;
}

function isOwnTemporary(name: string, base: string): boolean {
  return name.length === base.length + 37 && name.startsWith(`${base}.`) && /^\.[0-9a-f]{32}\.tmp$/.test(name.slice(base.length));
}

/** Writes `text` to `path` atomically: a crash at any moment leaves the old file or the new one. */
export function writePrivateFile(path: string, text: string): void {
  let temporary = temporaryName(path);
  let fd: number | undefined;
  // O_EXCL: a file someone placed under this name (or a link) makes the open fail, never ours to use.
  for (let attempt = 0; fd === undefined; attempt++) {
    try {
      fd = io.openSync(temporary, CREATE_EXCLUSIVE, PRIVATE);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 2) throw error;
      temporary = temporaryName(path);
    }
  }
  try {
    try {
      writeAllSync(fd, Buffer.from(text, 'utf8'));
      io.fsyncSync(fd);
    } finally {
      io.closeSync(fd);
    }
    io.renameSync(temporary, path);
  } catch (error) {
    try {
      io.unlinkSync(temporary);
    } catch {
      // already renamed or gone: nothing of ours is left behind
    }
    throw error;
  }
  // The rename itself must reach the disk too.
  const dir = io.openSync(dirname(path), 'r');
  try {
    io.fsyncSync(dir);
  } finally {
    io.closeSync(dir);
  }
}

/** Writes every byte, however short each write is; a write that takes nothing is the disk saying no. */
export function writeAllSync(fd: number, data: Uint8Array): void {
  for (let at = 0; at < data.length; ) {
    const written = io.writeSync(fd, data, at, data.length - at);
    if (written <= 0) throw Object.assign(new Error('no byte could be written'), { code: 'ENOSPC' });
    at += written;
  }
}

/** A temporary untouched this long is no write in progress (one takes seconds at most): a killed process left it. */
const STALE_MS = 60_000;

/**
 * Temporaries of ours a killed process left beside `path`: only regular files of our own
 * naming and our own user, so nothing of anyone else's is ever removed, and only stale ones,
 * so another process writing the same path at this moment keeps its own.
 */
export function removeStaleTemporaries(path: string): number {
  const base = basename(path);
  const dir = dirname(path);
  const uid = process.getuid?.();
  let removed = 0;
  let names: string[];
  try {
    names = io.readdirSync(dir);
  } catch {
    return 0;
  }
  for (const name of names) {
    if (!isOwnTemporary(name, base)) continue;
    try {
      const stat = io.lstatSync(join(dir, name));
      if (!stat.isFile() || (uid !== undefined && stat.uid !== uid) || Date.now() - stat.mtimeMs < STALE_MS) continue;
      io.unlinkSync(join(dir, name));
      removed++;
    } catch {
      // gone meanwhile, or not ours to remove
    }
  }
  return removed;
}

/**
 * The bytes of `path`, or undefined when there is no such file. Refused: a link (the file is
 * replaced on each save, so the link would be too), anything but a regular file, a file of
 * another user or one others can write (its content could be anyone's), and one larger than
 * `maxBytes` (read before a byte of it is held in memory).
 */
export function readPrivateFile(path: string, maxBytes: number): Uint8Array | undefined {
  let fd: number;
  try {
    fd = io.openSync(path, constants.O_RDONLY | NO_FOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP') throw new UntrustedFileError(`${path} is a symbolic link: name the file itself (it is replaced on every save)`);
    throw error;
  }
  try {
    const stat = io.fstatSync(fd);
    const uid = process.getuid?.();
    if (!stat.isFile()) throw new UntrustedFileError(`${path} is not a regular file`);
    if (uid !== undefined && stat.uid !== uid) throw new UntrustedFileError(`${path} belongs to another user (uid ${stat.uid}): its content is theirs to choose`);
    if (process.platform !== 'win32' && (stat.mode & 0o022) !== 0) {
      throw new UntrustedFileError(`${path} can be written by other users (mode ${(stat.mode & 0o777).toString(8)}); make it yours alone (chmod 600) if you trust its content`);
    }
    if (stat.size > maxBytes) {
      throw new UntrustedFileError(`${path} is ${megabytes(stat.size)}, more than the ${megabytes(maxBytes)} this simulator can read`);
    }
    const bytes = new Uint8Array(stat.size);
    let read = 0;
    while (read < bytes.length) {
      const n = io.readSync(fd, bytes, read, bytes.length - read, read);
      if (n === 0) break;
      read += n;
    }
    return bytes.subarray(0, read);
  } finally {
    io.closeSync(fd);
  }
}

function megabytes(bytes: number): string {
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}
