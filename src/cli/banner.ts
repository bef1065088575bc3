import type { Simulator } from '../simulator.js';
import { VERSION } from '../version.js';

/** What the CLI prints at start: where it listens and the seeded keys to use. */
export function banner(baseUrl: string, simulator: Simulator, control: boolean): string {
  const { keys, clock, internal: sim } = simulator;
  // A restored state file keeps its own accounts: a demo key it does not hold would not work.
  const shown = (key: string) => (sim.store.findKey(key) ? key : '(not in the restored state: use the keys you had)');
  return [
    `Content Generation Service simulator ${VERSION}`,
    `  listening on    ${baseUrl}   (API under ${baseUrl}/api/v1)`,
    `  seed            ${simulator.seed}`,
    ...instanceLine(sim.store.ownerTag),
    `  pipeline speed  ${sim.speedLabel}`,
    `  clock           ${clock.frozen ? `frozen at ${new Date(clock.now()).toISOString()}` : 'following real time'}`,
    `  MCP server      ${baseUrl}/mcp  (Bearer: an API key, or OAuth 2.1 sign-in)`,
    control ? `  dashboard       ${baseUrl}/  (accounts, builds, journal, clock, faults, reset: open it in a browser)` : `  start page      ${baseUrl}/`,
    `  API reference   ${baseUrl}/docs`,
    control ? `  control API     ${baseUrl}/_sim  (clock, accounts, journal, faults, reset)` : '  control API     off',
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

/** Behind a load balancer: the prefix its keys and share links carry, for the proxy's routes. */
function instanceLine(tag: string): string[] {
  if (!tag) return [];
  return [`  instance        ${Number.parseInt(tag, 16)}  (keys svc_live_${tag}…, share links /api/v1/shared/${tag}…: route them here)`];
}

/** Listening beyond loopback: say what is exposed and what protects what. */
export function exposureWarning(host: string, tokenSet: boolean, randomDemoKeys: boolean): string {
  return [
    `content-sim: WARNING: listening on ${host}, beyond loopback: other machines can reach the API and /mcp.`,
    randomDemoKeys
      ? '  The demo keys above are random for this run (--seeded-keys derives them from the seed): keep them to yourself.'
      : '  The demo keys are derived from the seed (--seeded-keys or --deterministic-secrets): anyone who knows it can use them.',
    '  Failed authentications and share views are limited per client address (30 and 60 a minute).',
    tokenSet ? '  /_sim needs the control token (X-Control-Token).' : '  /_sim answers loopback clients only (--control-token lets others in with a token).',
    '',
  ].join('\n');
}
