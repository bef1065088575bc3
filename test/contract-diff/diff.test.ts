import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runDiffCommand } from '../../contracts/diff/command.js';
import { diffDocuments } from '../../contracts/diff/operations-diff.js';
import { baseContract, CASES } from './corpus.js';

describe('content-contracts diff: the corpus of before/after pairs', () => {
  it.each(CASES)('$name: $verdict', ({ verdict, rule, change }) => {
    const after = baseContract();
    change(after);
    const result = diffDocuments(baseContract(), after);
    expect(result.breaking > 0 ? 'breaking' : 'compatible').toBe(verdict);
    if (rule) expect(result.changes.map((c) => c.rule)).toContain(rule);
    if (verdict === 'breaking') {
      // The breaking verdict rests on the rule the case is about, not on a side effect.
      expect(result.changes.filter((c) => c.severity === 'breaking').map((c) => c.rule)).toContain(rule);
    }
  });

  it('finds no change between a contract and itself', () => {
    expect(diffDocuments(baseContract(), baseContract()).changes).toEqual([]);
  });
});

describe('content-contracts diff: the real contract', () => {
  const file = fileURLToPath(new URL('../../openapi.yaml', import.meta.url));
  const contract = () => parse(readFileSync(file, 'utf8'));

  it('finds nothing between openapi.yaml and itself', () => {
    expect(diffDocuments(contract(), contract()).changes).toEqual([]);
  });

  it('names the rule when a real operation loses a required response field', () => {
    const after = contract();
    const schema = after.components.schemas.TokenBalance;
    delete schema.properties.lifetimeUsed;
    schema.required = schema.required.filter((name: string) => name !== 'lifetimeUsed');
    const result = diffDocuments(contract(), after);
    expect(result.changes).toContainEqual(expect.objectContaining({ rule: 'response-property-removed', operation: 'GET /api/v1/tokens/balance', severity: 'breaking' }));
  });
});

describe('content-contracts diff: the command', () => {
  const run = (argv: string[]) => {
    let out = '';
    let err = '';
    const code = runDiffCommand(argv, { out: (t) => (out += t), err: (t) => (err += t) });
    return { code, out, err };
  };
  const file = fileURLToPath(new URL('../../openapi.yaml', import.meta.url));

  it('exits 0 with a summary line when nothing breaks', () => {
    const { code, out } = run([file, file]);
    expect(code).toBe(0);
    expect(out).toMatch(/^diff: 0 breaking, 0 warnings, 0 compatible: compatible with existing clients$/m);
  });

  it('exits 2 with the usage on a missing file or a bad option', () => {
    expect(run([file]).code).toBe(2);
    expect(run([file, '/nonexistent.yaml']).err).toMatch(/cannot read \/nonexistent.yaml: ENOENT/);
    expect(run([file, file, '--format', 'xml']).err).toMatch(/--format takes text or json/);
  });
});
