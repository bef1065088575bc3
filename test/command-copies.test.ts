import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');

/**
 * The two commands are compiled apart, and contracts/ imports nothing from src/: what both
 * need of the command line (the npm launcher watch, "did you mean") is one file kept twice,
 * the contract kit's under a first line that says so. The two must never part.
 */
describe("the contract kit's copies of the command-line helpers", () => {
  it.each(['cli/launcher-watch', 'errors/closest-name'])("contracts/shared's copy of src/%s.ts is the same, line for line", (source) => {
    const copy = read(`contracts/shared/${source.split('/')[1]}.ts`).split('\n');
    expect(copy[0]).toMatch(new RegExp(`^// A copy of src/${source}\\.ts`));
    expect(copy.slice(1).join('\n')).toBe(read(`src/${source}.ts`));
  });
});
