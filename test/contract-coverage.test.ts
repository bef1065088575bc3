import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configFromEnv } from '../contracts/suite/config.js';
import { ExerciseLog, matchOperation } from '../contracts/shared/exercise-log.js';
import { exerciseReport, formatExerciseReport, type ExerciseReport } from '../contracts/shared/exercise-report.js';
import { readOperations } from '../contracts/shared/openapi-model.js';
import { COVERAGE_FILE, formatReport, writeSummary } from '../contracts/suite/report.js';
import { runContractSuite } from '../contracts/suite/runner.js';
import { simulatorUnderTest } from './violations/violated-simulator.js';

const config = (env: Record<string, string>) => configFromEnv({ CONTRACT_BASE_URL: 'http://simulator.in-process', CONTRACT_RUN_ID: 'coverage', CONTRACT_MODEL: '0', ...env });
const operation = (report: ExerciseReport, id: string) => report.operations.find((o) => o.operationId === id)!;

describe('the coverage report: what a run exercised', () => {
  it('counts operations, statuses, parameters and error codes of a strict run, in the console and as JSON', async () => {
    const summary = await runContractSuite(config({ CONTRACT_LEVEL: 'strict' }), simulatorUnderTest().fetch);
    const report = summary.exercised;
    expect(report.totals.operations).toEqual({ reached: 48, total: 48 });
    expect(report.totals.errorCodes.reached).toBeGreaterThanOrEqual(8);
    expect(report.errorCodes.seen).toEqual(expect.arrayContaining(['INSUFFICIENT_TOKENS', 'NOT_FOUND', 'RATE_LIMITED', 'SCOPE_REQUIRED', 'VALIDATION_ERROR', 'UNAUTHORIZED', 'INVALID_API_KEY']));
    const createBuild = operation(report, 'createBuild');
    expect(createBuild.statuses.seen).toEqual(expect.arrayContaining([200, 202, 400, 401, 402, 403, 404, 429]));
    expect(createBuild.parameters.find((p) => p.name === 'header.idempotency-key')?.exercised).toBe(true);
    expect(createBuild.parameters.find((p) => p.name === 'body.kind')?.values).toEqual(expect.arrayContaining(['blog', 'press_release']));
    const download = operation(report, 'downloadDeliverable');
    expect(download.parameters.find((p) => p.name === 'query.format')).toMatchObject({ exercised: true, missedValues: [] });
    expect(report.totals.statuses.reached).toBeGreaterThan(report.totals.statuses.total * 0.6);
    const console = formatReport(summary);
    expect(console).toMatch(/EXERCISED: 48\/48 operations called, \d+\/\d+ documented statuses seen/);
    // Every rule of the catalogue is exercised by a check that passed.
    expect(summary.rules.filter((r) => r.status !== 'exercised').map((r) => `${r.id}: ${r.status} ${r.reason ?? ''}`)).toEqual([]);
    expect(console).toMatch(new RegExp(`RULES: ${summary.rules.length} of ${summary.rules.length} rules of this level exercised \\(0 failed, 0 skipped, 0 with no check`));
    // Rules per source: the spec's, openapi.yaml's and each protocol's.
    for (const source of ['spec', 'openapi.yaml', 'OAuth 2.1', 'RFC 7636', 'MCP']) {
      const count = summary.rules.filter((r) => r.source === source).length;
      expect(console).toMatch(new RegExp(`by source: .*${source.replace('.', '\\.')} ${count} of ${count}`));
    }

    const dir = mkdtempSync(join(tmpdir(), 'coverage-'));
    writeSummary(summary, dir);
    const json = JSON.parse(readFileSync(join(dir, COVERAGE_FILE), 'utf8')) as ExerciseReport;
    expect(json.totals).toEqual(report.totals);
    expect((json as unknown as { rules: { totals: { exercised: number } } }).rules.totals.exercised).toBe(summary.rules.length);
  });

  it('counts the rules of the catalogue at the documented level: the spec\'s exercised, the strict ones not at this level', async () => {
    const summary = await runContractSuite(config({ CONTRACT_LEVEL: 'documented' }), simulatorUnderTest().fetch);
    const open = summary.rules.filter((r) => r.status !== 'exercised' && r.status !== 'not at this level');
    expect(open.map((r) => `${r.id}: ${r.status} ${r.reason ?? ''}`)).toEqual([]);
    expect(summary.rules.filter((r) => r.status === 'exercised').every((r) => r.level === 'documented')).toBe(true);
    expect(summary.rules.filter((r) => r.status === 'exercised').length).toBeGreaterThanOrEqual(40);
    expect(formatReport(summary)).toMatch(/RULES: \d+ of \d+ rules of this level exercised \(0 failed, 0 skipped, 0 with no check; \d+ strict rules not at this level\)/);
  });

  it('shows what a documented run without spending did not reach', async () => {
    const summary = await runContractSuite(config({ CONTRACT_LEVEL: 'documented', CONTRACT_SPEND: '0' }), simulatorUnderTest().fetch);
    const report = summary.exercised;
    const never = report.operations.filter((o) => o.calls === 0);
    expect(never.length).toBeGreaterThan(10); // most inferred operations are not called at the documented level
    expect(report.totals.operations.reached).toBe(48 - never.length);
    expect(operation(report, 'createBuild').statuses.missed).toContain(202);
    expect(operation(report, 'downloadDeliverable').statuses.missed).toContain(200); // no build, so no deliverable to download
    if (process.env.SHOW_COVERAGE) console.log(formatExerciseReport(report).join('\n'));
    const lines = formatExerciseReport(report).join('\n');
    for (const op of never) expect(lines).toContain(`${op.operationId} (${op.method} ${op.path}): never called`);
    expect(lines).toMatch(/createBuild \(POST \/api\/v1\/builds\): statuses [^;]*202/);
  });

  it('records traffic it did not make itself, matched to operations', () => {
    const operations = readOperations();
    const log = new ExerciseLog();
    const exchange = (method: string, url: string, status: number, body?: string, response?: string) =>
      log.record({ operation: matchOperation(operations, method, url), url, requestHeaders: {}, requestBody: body, status, responseBody: response, responseContentType: 'application/json' });
    exchange('GET', '/api/v1/builds?status=completed&limit=5', 200);
    exchange('GET', '/api/v1/builds/not-a-uuid', 400, undefined, JSON.stringify({ error: 'x', code: 'VALIDATION_ERROR', details: {} }));
    exchange('GET', '/api/v1/nowhere', 404);
    const report = exerciseReport(operations, log);
    const list = operation(report, 'listBuilds');
    expect(list.parameters.find((p) => p.name === 'query.status')).toMatchObject({ exercised: true, values: ['completed'] });
    expect(list.parameters.find((p) => p.name === 'query.status')?.missedValues).toContain('failed');
    expect(list.parameters.find((p) => p.name === 'query.cursor')?.exercised).toBe(false);
    expect(operation(report, 'getBuild').errorCodes).toEqual(['VALIDATION_ERROR']);
    expect(report.totals.operations.reached).toBe(2);
    expect(report.unmatchedRequests).toBe(1);
  });
});
