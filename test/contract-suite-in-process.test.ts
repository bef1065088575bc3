import { describe, expect, it } from 'vitest';
import { runContractSuite, SuiteRun } from '../contracts/suite/runner.js';
import { config, failures, outcome } from './violations/suite-run.js';
import { repeatRun } from './support/once.js';
import { inProcessFetch } from './violations/in-process-fetch.js';
import { legalVariant } from './violations/legal-variant.js';
import { withJson } from './violations/tamper.js';
import { callerNow } from './violations/violation.js';
import { simulatorUnderTest } from './violations/violated-simulator.js';

/**
 * The whole contract suite against a correct simulator in this process, at both levels and with
 * its switches; the runs over a loopback port and through the command are in
 * contract-suite.test.ts. A file of its own so that test workers share the suite's runs.
 */

/** Checks at the heart of the issue: each must have run and passed against a correct simulator. */
const CORE_CHECKS = [
  'tokens.insufficient',
  'tokens.blog-cost',
  'idempotency.replay',
  'idempotency.no-charge',
  'builds.order',
  'builds.no-skip',
  'builds.deliverables-timing',
  'builds.completed-terminal',
  'builds.failed',
  'deliverables.full',
  'deliverables.download-md',
  'deliverables.download-html',
  'limits.remaining-falls',
  'limits.exhaust-default',
  'limits.exhaust-build-create',
  'limits.exhaust-user',
  'auth.revoked.createBuild',
  'auth.scope.createBuild',
  'auth.no-key.getBuild',
];
const STRICT_CHECKS = ['builds.every-kind', 'builds.suite', 'idempotency.no-new-build', 'idempotency.window', 'tokens.charge-transaction', 'tokens.insufficient-partial'];
/** Scenarios of what openapi.yaml infers beyond builds: one or more per capability. */
const CAPABILITY_CHECKS = [
  'targets.update', 'targets.update-slug-taken', 'targets.delete',
  'library.create', 'library.list', 'library.update', 'library.other-target', 'library.delete',
  'sharing.create', 'sharing.public-view', 'sharing.revoke', 'sharing.expiry',
  'keys.create', 'keys.rotate', 'keys.revoke', 'keys.no-escalation',
  'tokens.bundles', 'tokens.transaction-by-id', 'tokens.purchase',
  'images.create', 'images.charge', 'images.read', 'images.file',
  'audio.voices', 'audio.create', 'audio.read', 'audio.file',
  'chat.create', 'chat.exchange', 'chat.list',
  'suggestions.topics', 'suggestions.brief', 'suggestions.brief-builds', 'suggestions.keywords', 'suggestions.quotes', 'suggestions.generation-class',
  'limits.exhaust-generation',
];

/** Checks that close the gaps: every credential form, isolation, references, parameters taking effect (documented part). */
const GAP_CHECKS = [
  'credentials.unknown', 'credentials.wrong-prefix', 'credentials.upper-prefix', 'credentials.upper-hex', 'credentials.prefix-dropped', 'credentials.truncated',
  'credentials.extended', 'credentials.padded',
  'credentials.empty-bearer', 'credentials.token-scheme', 'credentials.no-scheme', 'credentials.basic-scheme', 'credentials.api-key-header', 'credentials.query-key',
  'isolation.getBuild', 'isolation.getDeliverable', 'isolation.downloadDeliverable', 'isolation.balance', 'isolation.idempotency-key', 'isolation.rate-limit-bucket',
  'references.createBuild.targetId', 'parameters.download-format', 'parameters.download-format-required', 'errors.malformed-json',
];
const STRICT_GAP_CHECKS = [
  'credentials.lower-case-scheme', 'isolation.getTarget', 'isolation.deleteTarget', 'isolation.getLibraryItem', 'isolation.revokeShare',
  'isolation.getAudioFile', 'isolation.postChatMessage', 'isolation.rotateApiKey', 'isolation.list.listBuilds', 'references.createChat.targetId',
  'references.createBuild.libraryItemIds', 'references.unknown-path.createShare', 'parameters.page.listBuilds', 'parameters.filter.listBuilds.status',
  'parameters.bounds.listTargets', 'required.createBuild', 'options.keywords-max', 'options.audio-voice', 'transport.body.createBuild', 'transport.malformed-id.getImage',
  'mcp.challenge', 'mcp.catalogue', 'mcp.scopes', 'mcp.agrees-with-rest', 'mcp.errors', 'mcp.shared-window',
];

/** Checks of every case a rule governs, MCP and OAuth end to end: documented ones, then strict ones. */
const RULE_CASE_CHECKS = ['idempotency.other-body', 'idempotency.after-failure', 'idempotency.concurrent', 'auth.scope-existing.getBuild', 'auth.scope-existing.downloadDeliverable', 'oauth.code-flow', 'oauth.verifier-mismatch', 'oauth.code-reuse', 'oauth.scope-vocabulary'];
const STRICT_RULE_CASE_CHECKS = [
  'idempotency.window-edge', 'idempotency.other-key', 'builds.over-time', 'tokens.ledger', 'keys.every-key', 'keys.rotate-revoked', 'keys.rotate-no-escalation', 'chat.cap', 'audio.voices-per-deliverable',
  'oauth.grants-isolation', 'auth.scope-existing.getTarget', 'mcp.read-tools', 'mcp.write-tools', 'mcp.error-classes', 'mcp.resources', 'mcp.revoked-key', 'oauth.code-expiry', 'oauth.audience', 'oauth.access-expiry',
];

// In-process runs are the suite's and the engine's logic, the same on every Node: CI's first pass runs them (test/support/once.ts).
describe.skipIf(repeatRun)('the contract suite against a correct simulator, in-process', () => {
  it.each(['documented', 'strict'] as const)('passes in-process at the %s level, every core check run', async (level) => {
    const target = simulatorUnderTest();
    const summary = await runContractSuite(config({ CONTRACT_LEVEL: level }), target.fetch);
    expect(failures(summary)).toBe('');
    const expected = level === 'strict' ? [...CORE_CHECKS, ...STRICT_CHECKS, ...CAPABILITY_CHECKS, ...GAP_CHECKS, ...STRICT_GAP_CHECKS, ...RULE_CASE_CHECKS, ...STRICT_RULE_CASE_CHECKS] : [...CORE_CHECKS, ...GAP_CHECKS, ...RULE_CASE_CHECKS];
    for (const id of expected) expect(outcome(summary, id)?.status, id).toBe('passed');
    for (const skipped of summary.results.filter((r) => r.status === 'skipped')) expect(skipped.message).toMatch(/lists none/);
    if (level === 'strict') expect(summary.coverage.filter((c) => c.status !== 'verified')).toEqual([]); // every operation has a scenario
    else expect(summary.coverage.filter((c) => c.status === 'verified').length).toBeGreaterThanOrEqual(6);
    expect(summary.tokensSpent).toBeLessThanOrEqual(200);
  });

  it('passes at the documented level against a service that differs only in what openapi.yaml infers', async () => {
    const target = simulatorUnderTest();
    const variant = inProcessFetch(legalVariant(target.handle));
    const documented = await runContractSuite(config({ CONTRACT_LEVEL: 'documented' }), variant);
    expect(failures(documented)).toBe('');
    expect(documented.passed).toBeGreaterThan(40);
    const strict = await runContractSuite(config(), inProcessFetch(legalVariant(simulatorUnderTest().handle)));
    expect(failures(strict)).toContain('required header x-correlation-id is missing');
  });

  it('reports checks without their credential, or switched off, as skipped with the reason', async () => {
    const target = simulatorUnderTest();
    const env = { CONTRACT_KEY_READ_WRITE: target.simulator.keys.readWrite, CONTRACT_EXHAUST: '0', CONTRACT_WAIT: '0' };
    const summary = await runContractSuite(config(env), target.fetch);
    expect(failures(summary)).toBe('');
    expect(outcome(summary, 'auth.revoked.getBuild')).toMatchObject({ status: 'skipped', message: expect.stringContaining('CONTRACT_KEY_REVOKED') });
    expect(outcome(summary, 'auth.scope.getBuild')).toMatchObject({ status: 'skipped', message: expect.stringContaining('CONTRACT_KEY_WRITE_ONLY') });
    expect(outcome(summary, 'tokens.insufficient')).toMatchObject({ status: 'skipped', message: expect.stringContaining('CONTRACT_KEY_EMPTY') });
    expect(outcome(summary, 'builds.order')).toMatchObject({ status: 'skipped', message: expect.stringContaining('--no-wait') });
    expect(outcome(summary, 'limits.exhaust-default')).toMatchObject({ status: 'skipped', message: expect.stringContaining('--no-exhaust') });
    expect(outcome(summary, 'tokens.blog-cost')?.status).toBe('passed');
  });

  it('spends no token with --no-spend, and no more requests than the request budget', async () => {
    const target = simulatorUnderTest();
    const key = target.simulator.keys.readWrite;
    const account = () => target.simulator.internal.store.account(target.simulator.internal.store.findKey(key)!.accountId)!;
    const before = account().balance;
    const noSpend = await runContractSuite(config({ CONTRACT_KEY_READ_WRITE: key, CONTRACT_SPEND: '0' }), target.fetch);
    expect(failures(noSpend)).toBe('');
    expect(account().balance).toBe(before);
    expect(outcome(noSpend, 'idempotency.replay')).toMatchObject({ status: 'skipped', message: expect.stringContaining('--no-spend') });

    const budgeted = await runContractSuite(config({ CONTRACT_REQUEST_BUDGET: '25' }), simulatorUnderTest().fetch);
    expect(budgeted.requests).toBeLessThanOrEqual(25);
    expect(failures(budgeted)).toBe('');
    expect(budgeted.results.some((r) => r.status === 'skipped' && /request budget/.test(r.message ?? ''))).toBe(true);
  });

  it('buys tokens only with --allow-purchases, unless the server is the simulator (whose tokens cost nothing)', async () => {
    const target = simulatorUnderTest();
    const asRealService = { CONTRACT_SIMULATOR: '0', CONTRACT_KEY_READ_WRITE: target.simulator.keys.readWrite };
    const purchaseSkip = async (env: Record<string, string>) => {
      const run = await SuiteRun.open(config(env), target.fetch);
      const reason = run.staticSkip(run.checks.find((c) => c.id === 'tokens.purchase')!);
      await run.session.finish();
      return reason;
    };
    expect(await purchaseSkip(asRealService)).toMatch(/real money.*--allow-purchases/);
    expect(await purchaseSkip({ ...asRealService, CONTRACT_ALLOW_PURCHASES: '1' })).toBeUndefined();
    expect(await purchaseSkip({})).toBeUndefined();
    expect(await purchaseSkip({ CONTRACT_SPEND: '0' })).toMatch(/--no-spend/);
  });

  it('waits out a 429 it did not provoke, for Retry-After, instead of failing', async () => {
    const target = simulatorUnderTest();
    const arrivals: number[] = [];
    // The first authenticated balance read is refused for 30 s, as a busy service might.
    const handle: typeof target.handle = (request) => {
      const response = target.handle(request);
      if (request.url !== '/api/v1/tokens/balance' || !request.headers.authorization) return response;
      arrivals.push(callerNow(target.simulator, request));
      if (arrivals.length !== 1) return response;
      const reset = String(Math.floor(arrivals[0]! / 1000) + 30);
      const limited = withJson(response, { error: 'Slow down.', code: 'RATE_LIMITED', details: { bucket: 'key', limit: 60, retryAfterSeconds: 30 } }, 429);
      return { ...limited, headers: { ...limited.headers, 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset, 'retry-after': '30' } };
    };
    const summary = await runContractSuite(config({ CONTRACT_LEVEL: 'documented' }), inProcessFetch(handle));
    expect(failures(summary)).toBe('');
    expect(arrivals[1]! - arrivals[0]!).toBeGreaterThanOrEqual(30_000);
  });
});
