import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { HEAP_SHARE } from './memory-gauge.js';
import { parseServeOptions, USAGE } from './options.js';

describe('content-sim serve options', () => {
  it('takes --public-url as an origin and --deterministic-secrets as an opt-in', () => {
    const parsed = parseServeOptions(['serve', '--public-url', 'https://sim.example.com', '--deterministic-secrets'], {});
    expect(parsed).toMatchObject({ simulator: { publicUrl: 'https://sim.example.com', deterministicSecrets: true } });
    const plain = parseServeOptions([], {});
    expect(plain).not.toHaveProperty('simulator.deterministicSecrets');
    expect(parseServeOptions([], { SIM_PUBLIC_URL: 'http://10.0.0.5:4010' })).toMatchObject({ simulator: { publicUrl: 'http://10.0.0.5:4010' } });
  });

  it('refuses a public URL that is not an origin', () => {
    expect(() => parseServeOptions(['--public-url', 'ftp://x'], {})).toThrow(/--public-url takes an origin/);
    expect(() => parseServeOptions(['--public-url', 'https://sim.example.com/path'], {})).toThrow(/--public-url/);
  });

  it('draws the demo keys at random beyond loopback, unless --seeded-keys (or --deterministic-secrets) asks otherwise', () => {
    for (const host of ['127.0.0.1', 'localhost', '::1']) expect(parseServeOptions(['--host', host], {})).not.toHaveProperty('simulator.randomDemoKeys');
    expect(parseServeOptions(['--host', '0.0.0.0'], {})).toMatchObject({ simulator: { randomDemoKeys: true } });
    expect(parseServeOptions([], { HOST: '10.0.0.5' })).toMatchObject({ simulator: { randomDemoKeys: true } });
    expect(parseServeOptions(['--host', '0.0.0.0', '--seeded-keys'], {})).not.toHaveProperty('simulator.randomDemoKeys');
    expect(parseServeOptions(['--host', '0.0.0.0', '--deterministic-secrets'], {})).not.toHaveProperty('simulator.randomDemoKeys');
  });

  it('takes --frozen alone as "frozen now", last or before another option, as --help says', () => {
    const before = Date.now();
    for (const argv of [['--frozen'], ['--frozen', '--quiet'], ['serve', '--frozen', '--port', '0']]) {
      const parsed = parseServeOptions(argv, {}) as { simulator: { frozenAt: number } };
      expect(parsed.simulator.frozenAt, argv.join(' ')).toBeGreaterThanOrEqual(before);
    }
    expect(parseServeOptions(['--frozen', '2026-03-02T09:00:00Z'], {})).toMatchObject({ simulator: { frozenAt: Date.parse('2026-03-02T09:00:00Z') } });
  });
  it('takes --instance 0 to 255 (or SIM_INSTANCE) for keys that name their instance', () => {
    expect(parseServeOptions(['--instance', '7'], {})).toMatchObject({ simulator: { instance: 7 } });
    expect(parseServeOptions([], { SIM_INSTANCE: '255' })).toMatchObject({ simulator: { instance: 255 } });
    expect(parseServeOptions([], {})).not.toHaveProperty('simulator.instance');
    for (const bad of ['256', '-1', '1.5', 'a', '']) expect(() => parseServeOptions([`--instance=${bad}`], {}), bad).toThrow(/--instance must be 0 to 255/);
  });

  it('states the memory guard where the gauge puts it, in --help and in the CLI reference', () => {
    const share = `${HEAP_SHARE * 100}% of Node's heap limit`;
    expect(share).toBe("85% of Node's heap limit");
    expect(USAGE.replace(/\s+/g, ' ')).toContain(`without it, at ${share}`);
    expect(USAGE).not.toMatch(/nine tenths/);
    expect(readFileSync(new URL('../../docs/reference/cli.md', import.meta.url), 'utf8')).toContain(`Without it the same happens at ${share}`);
  });
});

describe('connection bounds', () => {
  it('defaults below the descriptor limit, and takes --max-connections and the time-outs', async () => {
    const { parseConnectionOptions } = await import('./connection-options.js');
    const fail = (m: string) => new Error(m);
    expect(parseConnectionOptions({}, fail, 256)).toEqual({ maxConnections: 192, maxConnectionsPerAddress: 192, headersTimeoutMs: 10_000, requestTimeoutMs: 30_000 });
    expect(parseConnectionOptions({}, fail, 1_000_000)).toMatchObject({ maxConnections: 4096, maxConnectionsPerAddress: 512 });
    expect(parseConnectionOptions({}, fail, undefined)).toMatchObject({ maxConnections: 4096 });
    const given = parseServeOptions(['--max-connections', '50', '--max-connections-per-address', '10', '--header-timeout', '2', '--body-timeout', '5'], {});
    expect(given).toMatchObject({ connections: { maxConnections: 50, maxConnectionsPerAddress: 10, headersTimeoutMs: 2000, requestTimeoutMs: 5000 } });
    expect(() => parseServeOptions(['--max-connections', '0'], {})).toThrow(/--max-connections must be 1 to/);
    expect(() => parseServeOptions(['--header-timeout', '20', '--body-timeout', '5'], {})).toThrow(/--body-timeout must be at least --header-timeout/);
    expect(USAGE).toMatch(/--max-connections <n>/);
    expect(readFileSync('docs/reference/cli.md', 'utf8')).toMatch(/--max-connections-per-address/);
  });
});

describe('quota options', () => {
  it('takes --quota-* into the simulator, MiB for stored bytes, and refuses what is not a count', () => {
    expect(parseServeOptions(['--quota-targets', '5', '--quota-stored-mib', '2'], {})).toMatchObject({ simulator: { quotas: { targets: 5, storedBytes: 2 * 1024 * 1024 } } });
    expect(parseServeOptions([], {})).not.toHaveProperty('simulator.quotas');
    expect(() => parseServeOptions(['--quota-keys', 'many'], {})).toThrow(/--quota-keys must be a whole number/);
    expect(USAGE).toMatch(/--quota-library-items/);
  });
});
