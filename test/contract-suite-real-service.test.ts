/**
 * The contract suite against a server without the control API, as a team runs it against the
 * real service. A file of its own: it waits out rate-limit windows in real time, and other test
 * files run beside it meanwhile.
 */
import { describe, expect, it } from 'vitest';
import { runContractSuite } from '../contracts/suite/runner.js';
import { config, failures, outcome } from './violations/suite-run.js';
import { simulatorUnderTest } from './violations/violated-simulator.js';

describe('the contract suite against a correct simulator without its control API', () => {
  // With no clock to move, the suite waits out rate-limit windows in real time: one to three
  // minutes' turns, depending on where in the minute it starts.
  it('treats a server without the control API as a real service: no clock to move, keys from the environment', { timeout: 240_000 }, async () => {
    const target = simulatorUnderTest(undefined, { speed: 'instant' });
    const keys = target.simulator.keys;
    const env = {
      CONTRACT_LEVEL: 'documented',
      CONTRACT_SIMULATOR: '0',
      CONTRACT_EXHAUST: '0',
      CONTRACT_POLL_INTERVAL: '0.05',
      CONTRACT_KEY_READ_WRITE: keys.readWrite,
      CONTRACT_KEY_READ_ONLY: keys.readOnly,
      CONTRACT_KEY_WRITE_ONLY: keys.writeOnly,
      CONTRACT_KEY_REVOKED: keys.revoked,
      CONTRACT_KEY_EMPTY: keys.emptyAccount,
    };
    const summary = await runContractSuite(config(env), target.fetch);
    expect(failures(summary)).toBe('');
    expect(summary.simulator).toBe(false);
    expect(outcome(summary, 'builds.failed')).toMatchObject({ status: 'skipped', message: expect.stringContaining('control API') });
    expect(outcome(summary, 'builds.no-skip')).toMatchObject({ status: 'skipped', message: expect.stringContaining('clock the suite moves') });
    for (const id of ['builds.order', 'deliverables.download-html', 'tokens.insufficient', 'auth.revoked.getBuild']) expect(outcome(summary, id)?.status, id).toBe('passed');
    expect(summary.tokensSpent).toBeLessThanOrEqual(5);
  });

});
