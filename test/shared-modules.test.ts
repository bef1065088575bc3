import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { leavesNothingBehind, sameOnEveryNode, sharingModules } from './support/once.js';

const root = fileURLToPath(new URL('..', import.meta.url));

describe('the test files whose workers share their modules', () => {
  it('are first-pass-only files, the engine, suite and unit tests among them', () => {
    const shared = sharingModules(root);
    const once = new Set(sameOnEveryNode(root));
    expect(shared.filter((file) => !once.has(file))).toEqual([]);
    for (const file of ['test/keys.test.ts', 'test/contract-suite-in-process.test.ts', 'test/violations/seeded-1.test.ts', 'src/cli/memory-gauge.test.ts']) expect(shared, file).toContain(file);
    expect(shared).not.toContain('test/cli.test.ts');
  });

  it('mock no module and leave no global, variable of the environment, fake timer or spy behind', () => {
    expect(leavesNothingBehind("import { harness } from './support/harness.js';\nconst h = harness();")).toBe(true);
    for (const leak of ["vi.mock('../src/clock/clock.js');", "vi.stubEnv('TZ', 'UTC');", "vi.stubGlobal('fetch', f);", "process.env.CONTRACT_LEVEL = 'documented';", "process.env['X'] = '1';", 'delete process.env.HOME;', 'globalThis.crypto = c;']) {
      expect(leavesNothingBehind(leak), leak).toBe(false);
    }
    expect(leavesNothingBehind('vi.useFakeTimers();')).toBe(false);
    expect(leavesNothingBehind('vi.useFakeTimers();\nafterEach(() => vi.useRealTimers());')).toBe(true);
    expect(leavesNothingBehind("vi.spyOn(process.stdout, 'write');")).toBe(false);
    expect(leavesNothingBehind("afterEach(() => vi.restoreAllMocks());\nvi.spyOn(process.stdout, 'write');")).toBe(true);
    expect(leavesNothingBehind("if (process.env.CI === 'true') skip();")).toBe(true);
  });
});
