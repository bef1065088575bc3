/**
 * Drift: a recording (HAR) replayed against a server and compared answer by answer (statuses,
 * error codes, field sets and types, enumerated values, documented headers). The command, and the
 * replay and comparison a scene's round-trip check is made of.
 */
export { runDriftCommand } from './command.js';
export { compareAnswers, distinct, type Answer } from './compare.js';
export { IdMap } from './id-map.js';
export { documentedResponseHeaders, recordedAnswer, sendCall, servicePath } from './replay.js';
export { formatDrift } from './report.js';
export type { Drift } from './rules.js';
export { ResponseSchemas } from './schema-walk.js';
export { recordedTime } from './target.js';
