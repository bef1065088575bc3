/**
 * What stops the server from starting, said with the fix: a port someone else holds, an
 * address not on this machine, a state file in a directory that is not there. The raw codes
 * (EADDRINUSE, ENOENT on a temporary file) mean little to someone who typed `content-sim`.
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** One line for an error of `server.listen`. */
export function listenProblem(error: NodeJS.ErrnoException, host: string, port: number): string {
  const where = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  switch (error.code) {
    case 'EADDRINUSE':
      return `port ${port} is already in use on ${host}: stop what holds it, or pick another port with --port <n> (or PORT=<n>); --port 0 picks a free one`;
    case 'EACCES':
      return `not allowed to listen on ${where}: ports below 1024 need privileges; pick a port from 1024 up with --port <n>, or --port 0 for a free one`;
    case 'EADDRNOTAVAIL':
      return `cannot listen on ${where}: ${host} is not an address of this machine; pick one with --host (127.0.0.1 for this machine only, 0.0.0.0 for every interface)`;
    default:
      return `cannot listen on ${where}: ${error.code ?? error.message}`;
  }
}

/** Why a state file cannot be written where it was asked for, or undefined when its directory is there. */
export function stateFileProblem(path: string): string | undefined {
  const directory = dirname(resolve(path));
  if (!existsSync(directory)) return `--state-file ${path}: the directory ${directory} does not exist; create it (mkdir -p ${directory}) or give a path in an existing directory`;
  if (!statSync(directory).isDirectory()) return `--state-file ${path}: ${directory} is not a directory; give a path in an existing directory`;
  return undefined;
}
