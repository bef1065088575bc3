import * as fs from 'node:fs';

/**
 * Every call the durable layer makes to the file system, in one object: the one seam through
 * which storage can fail. The fault-injection tests replace its members to make each write,
 * sync, rename, create and unlink fail in turn, as databases test themselves; nothing else
 * does.
 */
export const storageIo = {
  openSync: fs.openSync,
  closeSync: fs.closeSync,
  fstatSync: fs.fstatSync,
  lstatSync: fs.lstatSync,
  readSync: fs.readSync,
  readdirSync: fs.readdirSync,
  writeSync: fs.writeSync,
  write: fs.write as (fd: number, data: Uint8Array, offset: number, length: number, position: null, callback: (error: NodeJS.ErrnoException | null, written: number) => void) => void,
  fdatasync: fs.fdatasync,
  fdatasyncSync: fs.fdatasyncSync,
  fsync: fs.fsync,
  fsyncSync: fs.fsyncSync,
  ftruncate: fs.ftruncate as (fd: number, length: number, callback: (error: NodeJS.ErrnoException | null) => void) => void,
  ftruncateSync: fs.ftruncateSync,
  renameSync: fs.renameSync,
  unlinkSync: fs.unlinkSync,
  open: fs.open as (path: string, flags: string, callback: (error: NodeJS.ErrnoException | null, fd: number) => void) => void,
  close: fs.close as (fd: number, callback: (error: NodeJS.ErrnoException | null) => void) => void,
};

export const { constants } = fs;
/** Absent on Windows: there links and modes work otherwise, and the flag is simply not set. */
export const NO_FOLLOW = fs.constants.O_NOFOLLOW ?? 0;
/** A new private file: created only if no file (or link) of that name exists, never followed. */
export const CREATE_EXCLUSIVE = fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | NO_FOLLOW;
