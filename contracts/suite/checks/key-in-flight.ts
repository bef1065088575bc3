import type { Check } from '../check.js';
import { McpSession } from '../mcp-client.js';
import { expectEqual } from '../../shared/outcomes.js';
import { expectStatus } from './expect.js';
import { toolError } from './mcp.js';

/**
 * A key revoked while a call it started is still going: the MCP `waitForBuild` tool reads the
 * build again and again for as long as it waits, each read as its caller, so the revocation
 * must end it (openapi.yaml: "Takes effect at once").
 */
export const IN_FLIGHT = 'openapi.yaml: revokeApiKey: Takes effect at once: the next call with the key is 401 INVALID_API_KEY, also the next read of an MCP waitForBuild the key started, which ends with that error instead of waiting on';

/** Real time for the wait to have started before the key is revoked. */
const STARTED_MS = 200;
/** Short, so that a server that waits on regardless answers (the build still pending) within a test's time. */
const WAIT_SECONDS = 5;

export function keyInFlightChecks(): Check[] {
  return [
    {
      id: 'keys.revoked-mid-wait',
      title: IN_FLIGHT,
      level: 'strict',
      groups: ['spend'],
      covers: ['revokeApiKey'],
      requests: 12,
      run: async (s) => {
        s.spend(1, 'a build to wait for');
        const target = await s.fixtures.target();
        const key = await s.client.op('createApiKey', {}, { body: { name: `${s.config.runId} revoked mid-wait`, scopes: ['svc:read'] } });
        expectStatus(key, 201, `${IN_FLIGHT}: a key to wait with`);
        try {
          const build = await s.client.op('createBuild', {}, { body: { targetId: target.id, kind: 'blog', objective: `A build waited on by a key revoked meanwhile (${s.config.runId})` } });
          expectStatus(build, 202, `${IN_FLIGHT}: the build to wait for`);
          const mcp = await McpSession.openWith(s, `Bearer ${key.json.value}`);
          const waiting = mcp.callTool('waitForBuild', { buildId: build.json.buildId, timeoutSeconds: WAIT_SECONDS });
          await new Promise((resolve) => setTimeout(resolve, STARTED_MS));
          expectStatus(await s.client.op('revokeApiKey', { keyId: key.json.id }), 200, `${IN_FLIGHT}: revoking the key while it waits`);
          const reply = await waiting;
          const status = reply.message?.result?.structuredContent?.build?.status;
          // A build that ended before the revocation was seen is no evidence either way.
          if (status === 'completed' || status === 'failed') return s.skipBecause(`the build ended (${status}) before the revocation could be seen`);
          expectEqual(toolError(reply)?.code, 'INVALID_API_KEY', `${IN_FLIGHT}: the wait answered ${JSON.stringify(reply.message?.result ?? reply.message?.error ?? null).slice(0, 200)}`);
        } finally {
          await s.client.op('revokeApiKey', { keyId: key.json.id }).catch(() => undefined);
        }
      },
    },
  ];
}
