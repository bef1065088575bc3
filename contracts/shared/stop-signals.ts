import { npmLauncher, watchLauncher } from './launcher-watch.js';

/**
 * How a long-running command of the kit (the proxy, drift) learns it is to stop and finish its
 * work: SIGTERM (kill, a supervisor), SIGINT (Ctrl-C), SIGHUP (the terminal closed), or, started
 * through npx or an npm script, the npm process that launched it gone (npm does not pass its
 * signals on). A second signal, once the work is being finished, ends the process at once.
 */
export const STOP_SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;

export interface StopWatch {
  /** Settles with what asked to stop: a signal's name or the launcher's exit. */
  stopped: Promise<string>;
  /** Stops listening: the process's signals are Node's own again. */
  dispose: () => void;
}

export function watchStopRequests(env: NodeJS.ProcessEnv = process.env): StopWatch {
  let settle!: (reason: string) => void;
  const stopped = new Promise<string>((resolve) => (settle = resolve));
  let asked = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (asked) process.exit(130);
    asked = true;
    settle(signal);
  };
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
  const launcher = npmLauncher(env);
  const unwatch = launcher === undefined ? () => {} : watchLauncher(launcher, () => {
    if (asked) return;
    asked = true;
    settle(`npm (pid ${launcher}), which started this command, is gone`);
  });
  return {
    stopped,
    dispose: () => {
      unwatch();
      for (const signal of STOP_SIGNALS) process.off(signal, onSignal);
    },
  };
}
