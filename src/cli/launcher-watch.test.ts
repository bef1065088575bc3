import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { npmLauncher, watchLauncher } from './launcher-watch.js';

describe('the npm launcher watch', () => {
  const tree: Record<number, { ppid: number; command: string }> = {
    30: { ppid: 20, command: 'sh -c content-sim serve' },
    20: { ppid: 10, command: 'npm exec content-sim serve' },
    21: { ppid: 10, command: '/usr/bin/node /usr/lib/node_modules/npm/bin/npm-cli.js exec content-sim' },
    10: { ppid: 1, command: 'bash' },
  };
  const info = (pid: number) => tree[pid];

  it('finds the npm process above the shell npx runs the bin in, only when npm started us', () => {
    expect(npmLauncher({ npm_command: 'exec' }, 30, info)).toBe(20);
    expect(npmLauncher({ npm_command: 'exec' }, 21, info)).toBe(21);
    expect(npmLauncher({}, 30, info)).toBeUndefined();
    // Started by npm, but no npm process above (a daemon's wrapper exec'd away): nothing to watch.
    expect(npmLauncher({ npm_command: 'run' }, 10, info)).toBeUndefined();
  });

  it('tells once that the launcher has exited', async () => {
    const launcher = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 300)']);
    const gone = new Promise<number>((resolve) => {
      let calls = 0;
      watchLauncher(launcher.pid!, () => resolve(++calls));
    });
    expect(await gone).toBe(1);
    expect(launcher.exitCode).toBe(0);
  });
});
