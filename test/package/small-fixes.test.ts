/** The packaging issue's smaller fixes: a bare --frozen, absolute URLs in handle(), the README's summary-line claim. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseServeOptions } from '../../src/cli/options.js';
import { withOptionalValues } from '../../src/cli/optional-values.js';
import { createSimulator } from '../../src/index.js';
import { assertContract } from '../support/contract.js';

describe('--frozen without a value', () => {
  it('freezes the clock now, wherever it stands on the command line', () => {
    for (const argv of [['serve', '--frozen'], ['--frozen', '--port', '0'], ['--frozen', 'serve'], ['serve', '--frozen', '--quiet']]) {
      const before = Date.now();
      const options = parseServeOptions(argv, {});
      if (typeof options === 'string') throw new Error(`unexpected ${options}`);
      expect(options.simulator.frozenAt, argv.join(' ')).toBeGreaterThanOrEqual(before);
      expect(options.simulator.frozenAt).toBeLessThanOrEqual(Date.now());
    }
  });

  it('still takes an instant, given as the next word or after =', () => {
    const at = Date.parse('2026-03-02T09:00:00.000Z');
    for (const argv of [['--frozen', '2026-03-02T09:00:00Z'], ['--frozen=2026-03-02T09:00:00Z']]) {
      const options = parseServeOptions(argv, {});
      if (typeof options === 'string') throw new Error(`unexpected ${options}`);
      expect(options.simulator.frozenAt).toBe(at);
    }
    expect(withOptionalValues(['--seed', 'x', '--frozen'])).toEqual(['--seed', 'x', '--frozen=now']);
    expect(() => parseServeOptions(['--frozen', 'yesterday'], {})).toThrow(/ISO 8601/);
  });
});

describe('handle() with an absolute URL', () => {
  it('answers as for the same path and query in origin form', () => {
    const simulator = createSimulator({ frozenAt: Date.parse('2026-03-02T09:00:00.000Z') });
    const key = simulator.keys.readWrite;
    const headers = { authorization: `Bearer ${key}` };
    for (const url of ['/api/v1/tokens/balance', 'https://api.example.com/api/v1/tokens/balance', 'http://127.0.0.1:4010/api/v1/tokens/balance#x']) {
      const reply = simulator.handle({ method: 'GET', url, headers });
      const body = typeof reply.body === 'string' ? reply.body : new TextDecoder().decode(reply.body);
      assertContract({ method: 'GET', url: '/api/v1/tokens/balance', status: reply.status, headers: reply.headers, body });
      expect(reply.status, url).toBe(200);
      expect(typeof JSON.parse(body).balance, url).toBe('number');
    }
    // The query survives: a limit out of bounds is refused as it is in origin form.
    for (const url of ['/api/v1/targets?limit=0', 'https://api.example.com/api/v1/targets?limit=0']) {
      const reply = simulator.handle({ method: 'GET', url, headers });
      const body = typeof reply.body === 'string' ? reply.body : new TextDecoder().decode(reply.body);
      assertContract({ method: 'GET', url: '/api/v1/targets?limit=0', status: reply.status, headers: reply.headers, body });
      expect(reply.status, url).toBe(400);
    }
    const unknown = simulator.handle({ method: 'GET', url: 'https://api.example.com/nowhere', headers });
    expect(unknown.status).toBe(404);
  });
});

describe('README', () => {
  it('says the summary line is the last line of the contracts output, as contracts/run.ts prints it', () => {
    const readme = readFileSync(join(import.meta.dirname, '../../README.md'), 'utf8');
    expect(readme).toMatch(/the very last line of output, the summary line `contracts: N passed/);
    const runner = readFileSync(join(import.meta.dirname, '../../contracts/run.ts'), 'utf8');
    // The report (formatReport) ends with the summary line and is the last thing written.
    expect(runner).toMatch(/\$\{formatReport\(summary\)\}\\n`\);\n  return summary\.failed/);
  });
});
