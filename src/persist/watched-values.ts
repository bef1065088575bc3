import type { SimulatorState } from '../state/simulator-state.js';
import { HEAD_FIELDS_LOGGED_BY_NAME, snapshotHead } from '../state/snapshot.js';
import type { CapturedValue } from '../store/change-capture.js';
import { CORRELATION_RESERVED_DRAWS, RESERVED_DRAWS } from './replay.js';

/** The simulator-wide values the log keeps: the clock's setting, where the id streams stand, and the rest of the snapshot's head. */
export interface WatchedValues {
  all: CapturedValue[];
  /**
   * Whether some id stream has used three quarters of what a restart reserves past its last
   * logged position (`logged`: the streams' text as last logged): no id may be given beyond
   * that before its position is on disk.
   */
  streamsNearlyExhausted(logged: string): boolean;
}

const STREAMS = ['ids', 'keyValues', 'correlationIds'] as const;
const RESERVES = [RESERVED_DRAWS, RESERVED_DRAWS, CORRELATION_RESERVED_DRAWS];

export function watchedValues(sim: SimulatorState): WatchedValues {
  const clock: CapturedValue = {
    name: 'clock',
    read: () => JSON.stringify(sim.clock.setting()),
    // Set anew (frozen, advanced): an answer that says so waits for the log.
    due: (logged) => JSON.stringify(sim.clock.setting()) !== logged,
  };
  let lastLogged = '';
  let loggedDraws: number[] = [];
  const drawsSince = (logged: string): number[] => {
    if (logged !== lastLogged) {
      lastLogged = logged;
      const parsed = JSON.parse(logged) as Record<string, number[]>;
      loggedDraws = STREAMS.map((name) => parsed[name]?.[3] ?? 0);
    }
    const now = [sim.store.streams.ids[3], sim.store.streams.keyValues[3], sim.correlationIds.getState()[3]];
    return now.map((d, i) => (d - (loggedDraws[i] as number)) >>> 0);
  };
  const streams: CapturedValue = {
    name: 'streams',
    read: () => JSON.stringify({ ...sim.store.streams, correlationIds: sim.correlationIds.getState() }),
    // Correlation ids are given on every answer: their position is logged before half the reserve is used.
    due: (logged) => drawsSince(logged).some((d) => d >= RESERVED_DRAWS / 2),
  };
  // Whatever else the snapshot's head holds, recorded whole when it changes (nothing today: what
  // grows with the accounts is kept in them, as records).
  const extra = () => {
    const head: Record<string, unknown> = snapshotHead(sim);
    for (const name of HEAD_FIELDS_LOGGED_BY_NAME) delete head[name];
    return JSON.stringify(head);
  };
  const extras: CapturedValue = { name: 'extras', read: extra, due: (logged) => extra() !== logged };
  return {
    all: [clock, streams, extras],
    streamsNearlyExhausted: (logged) => drawsSince(logged).some((d, i) => d >= ((RESERVES[i] as number) * 3) / 4),
  };
}

/** The record of every value as it stands: written at start and at a clean stop. */
export function valueEntries(values: WatchedValues): string[] {
  return values.all.map((v) => `["v",${JSON.stringify(v.name)},${v.read()}]`);
}
