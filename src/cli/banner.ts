import type { Simulator } from '../simulator.js';
import { VERSION } from '../version.js';

/** What the CLI prints at start: where it listens and the seeded keys to use. */
export function banner(baseUrl: string, simulator: Simulator, control: boolean): string {
  const { keys, clock, sim } = simulator;
  return [
    `Content Generation Service simulator ${VERSION}`,
    `  listening on    ${baseUrl}   (API under ${baseUrl}/api/v1)`,
    `  seed            ${simulator.seed}`,
    `  pipeline speed  ${sim.speedLabel}`,
    `  clock           ${clock.frozen ? `frozen at ${new Date(clock.now()).toISOString()}` : 'following real time'}`,
    `  MCP server      ${baseUrl}/mcp  (Authorization: Bearer <API key>)`,
    control ? `  control API     ${baseUrl}/_sim  (clock, fresh accounts)` : '  control API     off',
    '',
    'Seeded API keys:',
    `  read+write      ${keys.readWrite}`,
    `  read-only       ${keys.readOnly}`,
    `  write-only      ${keys.writeOnly}`,
    `  revoked         ${keys.revoked}`,
    `  empty account   ${keys.emptyAccount}   (balance 0)`,
    '',
    '',
  ].join('\n');
}
