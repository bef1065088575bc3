import { chmodSync, chownSync, existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readStateFile, restoreFromStateFile, StateFileError } from '../../src/persist/state-file.js';
import { DurableState } from '../../src/persist/durable-state.js';
import { createSimulator } from '../../src/simulator.js';
import { T0 } from '../support/harness.js';

/**
 * The state file in a directory other users share: nothing they place there is followed or
 * adopted, the file is its owner's alone, and a file that cannot be trusted or read whole is
 * refused with a message, never loaded half-way or garbled.
 */
const NOBODY = 65534;
const isRoot = process.getuid?.() === 0;

/** A directory like /tmp: anyone may create files in it, only the owner of each may remove it. */
function sharedDirectory(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sim-shared-'));
  chmodSync(dir, 0o1777);
  return dir;
}

/** Places a file as another user would: theirs (when we may give it away), readable and writable by all. */
function foreign(path: string, content: string): void {
  writeFileSync(path, content);
  chmodSync(path, 0o666);
  if (isRoot) chownSync(path, NOBODY, NOBODY);
}

function writeOnce(path: string): Promise<void> {
  const simulator = createSimulator({ frozenAt: T0, onFault: () => {} });
  const kept = new DurableState(simulator, { path, durability: 'every-write', intervalMs: 60_000, onError: (line) => {
    throw new Error(line);
  } }, undefined);
  return kept.stop();
}

describe('the state file in a shared directory', () => {
  it('follows no link and adopts no file another user placed at the old temporary name; the file is 0600', async () => {
    const dir = sharedDirectory();
    const victim = join(dir, 'their-notes.txt');
    foreign(victim, 'their notes\n');

    const linked = join(dir, 'linked.json');
    symlinkSync(victim, `${linked}.tmp`);
    await writeOnce(linked);
    expect(readFileSync(victim, 'utf8')).toBe('their notes\n');
    expect(lstatSync(`${linked}.tmp`).isSymbolicLink()).toBe(true);

    const adopted = join(dir, 'adopted.json');
    foreign(`${adopted}.tmp`, 'theirs');
    await writeOnce(adopted);
    expect(readFileSync(`${adopted}.tmp`, 'utf8')).toBe('theirs');
    expect(statSync(adopted).ino).not.toBe(statSync(`${adopted}.tmp`).ino);

    for (const file of [linked, adopted]) {
      const stat = lstatSync(file);
      expect(stat.isFile()).toBe(true);
      expect(stat.mode & 0o777).toBe(0o600);
      expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ format: 'content-sim-state', version: 1 });
    }
    // No temporary of ours is left beside them.
    expect(readdirSync(dir).filter((n) => /\.[0-9a-f]{32}\.tmp$/.test(n))).toEqual([]);
  });

  it('writes a link placed at the state path over, leaving its target as it was', async () => {
    const dir = sharedDirectory();
    const victim = join(dir, 'their-notes.txt');
    foreign(victim, 'their notes\n');
    const path = join(dir, 'state.json');
    symlinkSync(victim, path);
    expect(() => readStateFile(path)).toThrow(/is a symbolic link/);
    await writeOnce(path);
    expect(readFileSync(victim, 'utf8')).toBe('their notes\n');
    expect(lstatSync(path).isFile()).toBe(true);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('removes temporaries of its own a killed process left, and nothing else', async () => {
    const dir = sharedDirectory();
    const path = join(dir, 'state.json');
    const anHourAgo = new Date(Date.now() - 3_600_000);
    const stale = `${path}.${'a'.repeat(32)}.tmp`;
    writeFileSync(stale, '{"torn');
    utimesSync(stale, anHourAgo, anHourAgo);
    const inProgress = `${path}.${'c'.repeat(32)}.tmp`; // another process of ours writing right now
    writeFileSync(inProgress, '{"being written');
    const lookalike = `${path}.${'b'.repeat(32)}.tmp`;
    foreign(lookalike, 'theirs');
    utimesSync(lookalike, anHourAgo, anHourAgo);
    await writeOnce(path);
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(inProgress)).toBe(true);
    // Another user's file of the same shape is not ours to remove (only root can give a file away to show it).
    if (isRoot) expect(readFileSync(lookalike, 'utf8')).toBe('theirs');
  });

  it('refuses a state file another user can write or owns, and says why', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-state-'));
    const path = join(dir, 'state.json');
    await writeOnce(path);
    expect(readStateFile(path)?.seed).toBe('content-sim');
    chmodSync(path, 0o666);
    expect(() => readStateFile(path)).toThrow(/can be written by other users \(mode 666\)/);
    if (isRoot) {
      chmodSync(path, 0o600);
      chownSync(path, NOBODY, NOBODY);
      expect(() => readStateFile(path)).toThrow(/belongs to another user \(uid 65534\)/);
    }
  });
});

describe('a state file that cannot be read whole', () => {
  function privateFile(content: Uint8Array | string): string {
    const path = join(mkdtempSync(join(tmpdir(), 'sim-state-')), 'state.json');
    writeFileSync(path, content, { mode: 0o600 });
    return path;
  }

  it('is refused when it is not valid UTF-8, rather than loaded with its bytes replaced', async () => {
    const simulator = createSimulator({ frozenAt: T0, onFault: () => {} });
    const valid = JSON.stringify(simulator.snapshot()).replace('"name":"', '"name":"caf\u00e9 ');
    expect(readStateFile(privateFile(valid))?.seed).toBe('content-sim');
    // The same file with one byte of é (0xC3 0xA9) cut: a lone lead byte.
    const bytes = Buffer.from(valid, 'utf8');
    const at = bytes.indexOf(0xc3);
    const broken = Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + 1)]);
    expect(() => readStateFile(privateFile(broken))).toThrow(StateFileError);
    expect(() => readStateFile(privateFile(broken))).toThrow(/is not valid UTF-8; move it away/);
  });

  it('is refused before it is read when it is larger than any string the runtime can make', async () => {
    const path = privateFile('');
    truncateSync(path, 585_000_000); // sparse: no disk used, nothing read
    expect(() => readStateFile(path)).toThrow(/is 585\.0 MB, more than the 536\.9 MB this simulator can read; not loaded/);
  });

  it('is refused with the path of the fault when its records break the rules', async () => {
    const simulator = createSimulator({ frozenAt: T0, onFault: () => {} });
    const snapshot = simulator.snapshot() as { accounts: Array<{ id: string }> };
    snapshot.accounts[0]!.id = '../../_sim/reset#';
    expect(() => restoreFromStateFile(simulator, 'state.json', snapshot)).toThrow(/cannot be restored:\n\s+accounts\[0\]\.id: /);
  });
});
