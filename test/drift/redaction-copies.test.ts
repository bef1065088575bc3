import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { redactSecrets as suiteSecrets } from '../../contracts/shared/body-redaction.js';
import { redactUrl as suiteUrl } from '../../contracts/shared/url-redaction.js';
import { redactSecrets } from '../../src/observe/body-redaction.js';
import { redactUrl } from '../../src/observe/url-redaction.js';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

/**
 * contracts/ imports nothing from src/, so the contract suite keeps its own copy of the
 * journal's redaction (for the HAR its proxy records): the two must never part.
 */
describe("the contract suite's copy of the journal's redaction", () => {
  it.each(['body-redaction', 'url-redaction'])('%s.ts is the simulator\'s, line for line, under a first line that says so', (name) => {
    const copy = read(`contracts/shared/${name}.ts`).split('\n');
    expect(copy[0]).toMatch(new RegExp(`^// .*src/observe/${name}\\.ts`));
    expect(copy.slice(1).join('\n')).toBe(read(`src/observe/${name}.ts`));
  });

  it('redacts the same way: a key, an OAuth code, a share link, a verifier', () => {
    const key = `svc_live_${'ab12'.repeat(10)}`;
    const body = JSON.stringify({ value: key, code: 'sim_ac_0123456789abcdef', code_verifier: 'x'.repeat(43), url: `/api/v1/shared/${'9f'.repeat(20)}` });
    expect(suiteSecrets(body)).toBe(redactSecrets(body));
    expect(suiteSecrets(body)).not.toContain(key);
    const url = `/api/v1/shared/${'9f'.repeat(20)}?code=sim_ac_0123456789abcdef&api_key=${key}`;
    expect(suiteUrl(url)).toBe(redactUrl(url));
    expect(suiteUrl(url)).not.toContain(key.slice(9, 30));
  });
});
