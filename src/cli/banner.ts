import type { Simulator } from '../simulator.js';
import { VERSION } from '../version.js';

/** What the CLI prints at start: where it listens and the seeded keys to use. */
export function banner(baseUrl: string, simulator: Simulator, control: boolean): string {
  const { keys, clock, sim } = simulator;
  // A restored state file keeps its own accounts: a demo key it does not hold would not work.
  const shown = (key: string) => (sim.store.findKey(key) ? key : '(not in the restored state: use the keys you had)');
  return [
    `Content Generation Service simulator ${VERSION}`,
    `  listening on    ${baseUrl}   (API under ${baseUrl}/api/v1)`,
    `  seed            ${simulator.seed}`,
    `  pipeline speed  ${sim.speedLabel}`,
    `  clock           ${clock.frozen ? `frozen at ${new Date(clock.now()).toISOString()}` : 'following real time'}`,
    `  MCP server      ${baseUrl}/mcp  (Bearer: an API key, or OAuth 2.1 sign-in)`,
    control ? `  control API     ${baseUrl}/_sim  (clock, fresh accounts)` : '  control API     off',
    '',
    'Seeded API keys:',
    `  read+write      ${shown(keys.readWrite)}`,
    `  read-only       ${shown(keys.readOnly)}`,
    `  write-only      ${shown(keys.writeOnly)}`,
    `  revoked         ${shown(keys.revoked)}`,
    `  empty account   ${shown(keys.emptyAccount)}   (balance 0)`,
    '',
    '',
  ].join('\n');
}
