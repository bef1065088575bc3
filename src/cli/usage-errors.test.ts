import { parseArgs } from 'node:util';
import { describe, expect, it } from 'vitest';
import { closestOption, explainParseError, UsageError } from './usage-errors.js';

const OPTIONS = { port: { type: 'string' }, 'state-file': { type: 'string' }, 'no-control': { type: 'boolean' }, quiet: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } as const;
const explained = (args: string[]) => {
  try {
    parseArgs({ args, options: OPTIONS, allowPositionals: true });
  } catch (error) {
    return explainParseError(error, OPTIONS) as Error;
  }
  throw new Error('parsed');
};

describe('command-line mistakes, said with the fix', () => {
  it('suggests the nearest option for a typo, a swap, a dropped letter or a part of its name, and nothing for a stranger', () => {
    expect(closestOption('--prot', OPTIONS)).toBe('--port');
    expect(closestOption('--qiuet', OPTIONS)).toBe('--quiet');
    expect(closestOption('--state', OPTIONS)).toBe('--state-file');
    expect(closestOption('--control', OPTIONS)).toBe('--no-control');
    expect(closestOption('--banana', OPTIONS)).toBeUndefined();
  });

  it('turns parseArgs\' errors into UsageErrors of one line, and leaves other errors alone', () => {
    const unknown = explained(['--prot', '1']);
    expect(unknown).toBeInstanceOf(UsageError);
    expect(unknown.message).toBe('unknown option --prot: did you mean --port? (content-sim --help lists every option)');
    expect(explained(['--prot=1']).message).toContain('unknown option --prot: did you mean --port?');
    expect(explained(['--port']).message).toBe('--port needs a value: --port <value> or --port=<value> (content-sim --help lists every option)');
    expect(explained(['--quiet=yes']).message).toBe('--quiet takes no value: give it alone (content-sim --help lists every option)');
    for (const e of [unknown, explained(['--port'])]) expect(e.message).not.toMatch(/\n|ERR_PARSE_ARGS|'/);
    const other = new Error('disk');
    expect(explainParseError(other, OPTIONS)).toBe(other);
  });
});
