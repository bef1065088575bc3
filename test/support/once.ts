/**
 * CI runs the whole suite on the machine's Node and again on every newer major. Tests whose
 * outcome cannot depend on the Node that runs the test file (they drive external tools, long
 * floods against a spawned server, or catalogues of planted faults through logic every pass
 * already runs) run on the first pass only: `.ci/run` sets
 * REPEAT_RUN=1 for the later passes.
 */
export const repeatRun = process.env.REPEAT_RUN === '1';
