import { constants } from 'node:fs';
import { storageIo } from '../../src/persist/storage-io.js';

/**
 * A file-system shim for the durable layer (`storageIo`): makes each write, sync, rename,
 * create, truncate and unlink fail on demand, with the error a disk gives (ENOSPC, EIO, EEXIST,
 * EACCES) or a short write, and "kills" the process by letting no call reach the disk any more.
 */

export type FaultPoint = 'write' | 'sync' | 'rename' | 'create' | 'unlink' | 'truncate';
export type FaultKind = 'ENOSPC' | 'EIO' | 'EEXIST' | 'EACCES' | 'short';

const real = { ...storageIo };
type Io = typeof storageIo;

/** Which members of the seam each point covers. */
const POINTS: Record<FaultPoint, Array<keyof Io>> = {
  write: ['write', 'writeSync'],
  sync: ['fdatasync', 'fdatasyncSync', 'fsync', 'fsyncSync'],
  rename: ['renameSync'],
  create: ['openSync'],
  unlink: ['unlinkSync'],
  truncate: ['ftruncate', 'ftruncateSync'],
};

export interface Armed {
  point: FaultPoint;
  kind: FaultKind;
  /** Calls of the point to let through first. */
  skip: number;
  /** Calls to fail after that. */
  count: number;
  /** Calls failed so far. */
  fired: number;
}

let armed: Armed | null = null;
let dead = false;

const errno = (code: string) => Object.assign(new Error(`${code}: injected by the test`), { code, errno: -1, syscall: 'injected' });

function shouldFail(point: FaultPoint, args: unknown[]): boolean {
  if (!armed || armed.point !== point || armed.fired >= armed.count) return false;
  // A create is an open that makes a file; other opens (reads, the directory) go through.
  if (point === 'create' && (typeof args[1] !== 'number' || (args[1] & constants.O_CREAT) === 0)) return false;
  if (armed.skip > 0) {
    armed.skip--;
    return false;
  }
  armed.fired++;
  return true;
}

function install(): void {
  for (const [point, names] of Object.entries(POINTS) as Array<[FaultPoint, Array<keyof Io>]>) {
    for (const name of names) {
      const original = real[name] as (...args: unknown[]) => unknown;
      (storageIo as Record<string, unknown>)[name] = (...args: unknown[]) => {
        const callback = typeof args[args.length - 1] === 'function' ? (args[args.length - 1] as (...a: unknown[]) => void) : undefined;
        if (dead) {
          if (callback) return void setImmediate(() => callback(errno('EIO')));
          throw errno('EIO');
        }
        if (!shouldFail(point, args)) return original(...args);
        const kind = armed!.kind;
        if (kind === 'short' && (name === 'write' || name === 'writeSync')) {
          // Half the bytes reach the file; the caller must go on or cut them off.
          const length = Math.max(1, (args[3] as number) >> 1);
          const shortened = [...args];
          shortened[3] = length;
          return original(...shortened);
        }
        const error = errno(kind === 'short' ? 'ENOSPC' : kind);
        if (callback) return void setImmediate(() => callback(error));
        throw error;
      };
    }
  }
}
install();

export function arm(point: FaultPoint, kind: FaultKind, skip: number, count: number): Armed {
  armed = { point, kind, skip, count, fired: 0 };
  return armed;
}

export function disarm(): void {
  armed = null;
}

/** From now on nothing reaches the disk, as after SIGKILL: what is on it is what a restart reads. */
export function kill(): void {
  dead = true;
}

/** A new process: the disk answers again. */
export function revive(): void {
  dead = false;
  armed = null;
}
