import { readFileSync } from 'node:fs';
import { constants } from 'node:fs';
import { storageIo } from '../../src/persist/storage-io.js';

/**
 * Loaded into a served simulator (`node --import`): a disk with only so many bytes free, as the
 * file named by SIM_TEST_DISK_FREE_FILE says (the test changes it to give space back). A write
 * that does not fit, and a file made on a full disk, fail with ENOSPC, as a real disk answers.
 */
const file = process.env.SIM_TEST_DISK_FREE_FILE;
if (file) {
  // The file says how many bytes are free from the moment it says so.
  let used = 0;
  let said = Number.NaN;
  const free = () => {
    const now = Number(readFileSync(file, 'utf8'));
    if (now !== said) (said = now), (used = 0);
    return said - used;
  };
  const noSpace = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' });
  const { write, writeSync, openSync } = storageIo;
  storageIo.write = (fd, data, offset, length, position, callback) => {
    if (length > free()) return void setImmediate(() => callback(noSpace(), 0));
    used += length;
    write(fd, data, offset, length, position, callback);
  };
  storageIo.writeSync = ((fd: number, data: Uint8Array, offset?: number, length?: number) => {
    const bytes = length ?? data.length - (offset ?? 0);
    if (bytes > free()) throw noSpace();
    used += bytes;
    return writeSync(fd, data, offset, bytes);
  }) as typeof writeSync;
  storageIo.openSync = ((path: string, flags: number, mode?: number) => {
    if (typeof flags === 'number' && (flags & constants.O_CREAT) !== 0 && free() <= 0) throw noSpace();
    return openSync(path, flags, mode);
  }) as typeof openSync;
}
