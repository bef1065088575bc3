import { describe, expect, it } from 'vitest';
import { faultReporter } from './keep-serving.js';

describe('faults nothing caught', () => {
  it('are logged with their stack, the same one once a minute at most', () => {
    const lines: string[] = [];
    let now = 0;
    const report = faultReporter((line) => lines.push(line), () => now);
    report(Object.assign(new Error('EMFILE: too many open files, uv_resident_set_memory'), { code: 'EMFILE' }));
    report(new Error('EMFILE: too many open files, uv_resident_set_memory'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/unexpected fault, serving goes on: Error: EMFILE/);
    expect(lines[0]).toMatch(/keep-serving\.test\.ts/);
    report('a rejection that is no Error');
    expect(lines).toHaveLength(2);
    now = 61_000;
    report(new Error('EMFILE: too many open files, uv_resident_set_memory'));
    expect(lines).toHaveLength(3);
  });
});
