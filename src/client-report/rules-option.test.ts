import { describe, expect, it } from 'vitest';
import { parseServeOptions } from '../cli/options.js';
import { RULE_IDS } from './rules.js';
import { rulesOffFrom } from './rules-option.js';

describe('--client-rules', () => {
  it('reads its list in order from every rule on', () => {
    expect(rulesOffFrom('-poll-too-fast,-retry-after-402')).toEqual(['poll-too-fast', 'retry-after-402']);
    expect(rulesOffFrom('none,poll-too-fast')).toEqual(RULE_IDS.filter((rule) => rule !== 'poll-too-fast'));
    expect(rulesOffFrom('none,all,-poll-after-end')).toEqual(['poll-after-end']);
    expect(rulesOffFrom('')).toEqual([]);
  });

  it('names an unknown rule, and the CLI says which option it was', () => {
    expect(() => rulesOffFrom('-poll-slowly')).toThrow(/unknown client rule "poll-slowly": the rules are poll-too-fast, /);
    expect(() => parseServeOptions(['--client-rules', 'nope'], {})).toThrow(/^--client-rules: unknown client rule "nope"/);
    const parsed = parseServeOptions(['--client-report', '--client-rules=-poll-too-fast'], {});
    expect(parsed).toMatchObject({ clientReport: true, simulator: { clientRulesOff: ['poll-too-fast'] } });
  });
});
