import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { configFromEnv } from '../contracts/suite/config.js';
import { runContractSuite } from '../contracts/suite/runner.js';
import { serveOnLoopback, simulatorUnderTest } from './violations/violated-simulator.js';
import { VIOLATIONS } from './violations/catalog.js';

const hook = fileURLToPath(new URL('./support/oauth-sign-in-hook.mjs', import.meta.url));
const CODE_FLOW = ['oauth.code-flow', 'oauth.verifier-mismatch', 'oauth.code-reuse', 'oauth.scope-vocabulary'];

/** The authorization-code checks against a server that is not the simulator: the sign-in is the CONTRACT_OAUTH_SIGN_IN command's. */
async function runAgainstRealService(violationId?: string) {
  const violation = violationId ? VIOLATIONS.find((v) => v.id === violationId) : undefined;
  const target = simulatorUnderTest(violation);
  const server = await serveOnLoopback(target);
  const keys = target.simulator.keys;
  try {
    return await runContractSuite(
      configFromEnv({
        CONTRACT_BASE_URL: server.baseUrl,
        CONTRACT_LEVEL: 'documented',
        CONTRACT_RUN_ID: 'oauth-hook',
        CONTRACT_SIMULATOR: '0',
        CONTRACT_SPEND: '0',
        CONTRACT_WAIT: '0',
        CONTRACT_EXHAUST: '0',
        CONTRACT_KEY_READ_WRITE: keys.readWrite,
        CONTRACT_KEY_READ_ONLY: keys.readOnly,
        CONTRACT_OAUTH_SIGN_IN: `"${process.execPath}" "${hook}"`,
      }),
    );
  } finally {
    await server.close();
  }
}

describe('the authorization-code checks against another server', () => {
  it('sign in through the CONTRACT_OAUTH_SIGN_IN command and pass', async () => {
    const summary = await runAgainstRealService();
    const outcome = (id: string) => summary.results.find((r) => r.id === id);
    for (const id of CODE_FLOW) expect(outcome(id)?.status, `${id}: ${outcome(id)?.message}`).toBe('passed');
    expect(summary.results.filter((r) => r.status === 'failed')).toEqual([]);
  }, 120_000);

  it('catch a verifier the server does not compare, signing in through the command', async () => {
    const summary = await runAgainstRealService('oauth-verifier-not-compared');
    expect(summary.results.find((r) => r.id === 'oauth.verifier-mismatch')).toMatchObject({ status: 'failed', message: expect.stringContaining('does not match its code_challenge is invalid_grant') });
  }, 120_000);
});
