import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** content-contracts's command-line mistakes in one line, as content-sim says them (the built bin: `npm run build`). */
const bin = join(fileURLToPath(new URL('..', import.meta.url)), 'dist/contracts/run.js');
const run = (args: string[]) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 20_000, env: { ...process.env, CONTRACT_BASE_URL: '' } });

describe('content-contracts usage errors', () => {
  it('answers a mistyped option with the nearest known one and a pointer to --help, not the whole usage', () => {
    const typo = run(['--bse-url', 'http://127.0.0.1:1']);
    expect(typo.stderr).toBe('contracts: unknown option --bse-url: did you mean --base-url? (content-contracts --help lists every option)\n');
    expect(typo.status).toBe(2);
    expect(run(['--zzz']).stderr).toBe('contracts: unknown option --zzz (content-contracts --help lists every option)\n');
    expect(run(['prxy']).stderr).toBe('contracts: unexpected argument prxy: did you mean content-contracts proxy? (content-contracts --help lists every option)\n');
    expect(run(['--help']).stdout).toMatch(/^Usage: content-contracts --base-url/);
  });

  it('does the same for the proxy and drift commands', () => {
    expect(run(['proxy', '--tagret', 'http://127.0.0.1:1']).stderr).toBe('contracts proxy: unknown option --tagret: did you mean --target? (content-contracts proxy --help lists every option)\n');
    expect(run(['proxy']).stderr).toBe('contracts proxy: --target is required (content-contracts proxy --help lists every option)\n');
    expect(run(['drift', '--har', 'x.har', '--base-ulr', 'http://127.0.0.1:1']).stderr).toBe('contracts drift: unknown option --base-ulr: did you mean --base-url? (content-contracts drift --help lists every option)\n');
  });
});
