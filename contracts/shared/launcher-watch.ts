// A copy of src/cli/launcher-watch.ts, line for line (contracts/ imports nothing from src/; test/command-copies.test.ts holds them equal).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/**
 * `npx content-sim serve` runs the server as npm's grandchild (npm exec → sh -c → node), and
 * npm does not pass a signal on when it is killed: `npx content-sim serve & … kill $!` would
 * leave the server answering, its port taken. Started by npm (npm sets `npm_command`), the
 * server watches the npm process and stops, as on SIGTERM, once it is gone. Started any other
 * way (a shell, nohup, a supervisor), nothing is watched: its owner's signals are enough.
 */
const POLL_MS = 500;
/** npm exec → sh -c → node: a few steps up at most. */
const MAX_DEPTH = 4;

interface ProcessInfo {
  ppid: number;
  command: string;
}

/** A process's parent and command line: from /proc on Linux, from ps elsewhere; undefined when unknown. */
function processInfo(pid: number): ProcessInfo | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
    // The command name in stat is in parentheses and may hold spaces: the fields after it are fixed.
    return { ppid: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]), command };
  } catch {
    try {
      const [ppid, ...command] = execFileSync('ps', ['-o', 'ppid=,command=', '-p', String(pid)], { encoding: 'utf8', timeout: 2000 }).trim().split(/\s+/);
      return ppid ? { ppid: Number(ppid), command: command.join(' ') } : undefined;
    } catch {
      return undefined;
    }
  }
}

/** The npm process that launched this one, if npm did: the nearest ancestor whose command is npm's. */
export function npmLauncher(env: NodeJS.ProcessEnv, parent = process.ppid, info = processInfo): number | undefined {
  if (!env.npm_command || process.platform === 'win32') return undefined;
  let pid = parent;
  for (let depth = 0; depth < MAX_DEPTH && pid > 1; depth++) {
    const found = info(pid);
    if (!found) return undefined;
    if (/(^|[/\s])(npm|npx)(-cli\.js)?(\s|$)/.test(found.command)) return pid;
    pid = found.ppid;
  }
  return undefined;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Calls `onGone` once when the launcher has exited (or this process was handed to another parent). */
export function watchLauncher(launcher: number, onGone: () => void): () => void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (alive(launcher) && process.ppid === parent) return;
    clearInterval(timer);
    onGone();
  }, POLL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
