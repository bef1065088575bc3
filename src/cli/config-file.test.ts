import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { loadServeOptions } from './config-file.js';
import { configSchema, envName } from './option-sources.js';
import { SERVE_OPTIONS, USAGE, type ServeOptions } from './options.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'serve-config-'));
const file = (name: string, text: string) => (writeFileSync(join(dir, name), text), join(dir, name));
const load = async (argv: string[], env: NodeJS.ProcessEnv = {}) => (await loadServeOptions(argv, env)) as ServeOptions;

describe('content-sim serve --config', () => {
  it('reads every option from a YAML or JSON file, scenario files beside it and scenarios written out', async () => {
    const yaml = file('sim.yaml', 'port: 4999\njournal-size: 50\nquiet: true\nno-rate-limits: true\nquota-targets: 7\nscenario:\n  - new-user\n  - team.yaml\n  - scenario: inline\n    accounts: [{ name: user }]\n');
    const options = await load(['--config', yaml]);
    expect(options).toMatchObject({ port: 4999, quiet: true, simulator: { journalSize: 50, rateLimits: { perUser: 1e9 }, quotas: { targets: 7 } } });
    expect(options.scenarios).toEqual(['new-user', join(dir, 'team.yaml'), { scenario: 'inline', accounts: [{ name: 'user' }] }]);
    const json = file('sim.json', JSON.stringify({ host: '127.0.0.2', 'log-format': 'json' }));
    expect(await load([], { SIM_CONFIG: json })).toMatchObject({ host: '127.0.0.2', logFormat: 'json' });
  });

  it('takes flags over environment over file, for every kind of option', async () => {
    const yaml = file('layers.yaml', 'port: 4001\nseed: from-file\nquiet: true\njournal-size: 10\n');
    const env = { PORT: '4002', SIM_SEED: 'from-env', SIM_QUIET: '0' };
    const options = await load(['--config', yaml, '--port', '4003'], env);
    expect(options).toMatchObject({ port: 4003, quiet: false, simulator: { seed: 'from-env', journalSize: 10 } });
    expect(options.settings.from).toEqual({ port: 'flag', seed: 'environment', quiet: 'environment', 'journal-size': 'file', config: 'flag' });
  });

  it('gives every option an environment variable, named from its flag', async () => {
    expect(envName('journal-size')).toBe('SIM_JOURNAL_SIZE');
    const options = await load([], { SIM_JOURNAL_SIZE: '5', SIM_NO_RATE_LIMITS: '1', SIM_SCENARIO: 'new-user,empty-balance', SIM_QUOTA_KEYS: '3', SIM_MAX_CONNECTIONS: '9', SIM_FROZEN_AT: '2026-01-01T00:00:00Z' });
    expect(options).toMatchObject({ scenarios: ['new-user', 'empty-balance'], simulator: { journalSize: 5, rateLimits: { perUser: 1e9 }, quotas: { keys: 3 }, frozenAt: Date.parse('2026-01-01T00:00:00Z') }, connections: { maxConnections: 9 } });
    await expect(load([], { SIM_QUIET: 'maybe' })).rejects.toThrow('SIM_QUIET is 1 or 0 (true or false), not maybe');
  });

  it('refuses an unknown key with the nearest option and the list of them all', async () => {
    const yaml = file('typo.yaml', 'jornal-size: 5\n');
    await expect(load(['--config', yaml])).rejects.toThrow(new RegExp(`^${yaml}: jornal-size is not an option: did you mean journal-size\\? \\(the options are port, host, seed, .*quiet.*\\)$`));
    await expect(load(['--config', file('bad.yaml', 'quiet: yes please\n')])).rejects.toThrow(/quiet is true or false/);
    await expect(load(['--config', join(dir, 'none.yaml')])).rejects.toThrow(/--config .*none\.yaml: no such file/);
  });

  it('ships a JSON Schema of the file made from the same option table, which accepts what the simulator reads', () => {
    const shipped = JSON.parse(readFileSync(join(root, 'serve-config.schema.json'), 'utf8'));
    expect(shipped, 'serve-config.schema.json is written from the option table: regenerate it (tsx scripts/write-config-schema.ts)').toEqual(configSchema(SERVE_OPTIONS));
    const ajv = new Ajv2020({ strict: false });
    ajv.addSchema(JSON.parse(readFileSync(join(root, 'scenario.schema.json'), 'utf8')));
    const validate = ajv.compile(shipped);
    expect(validate({ port: 4010, quiet: true, scenario: ['new-user'] })).toBe(true);
    expect(validate({ 'jornal-size': 5 })).toBe(false);
    expect(USAGE).toContain('--config <file>');
  });

  it('--print-config shows the effective configuration with secrets hidden, then exits', () => {
    const yaml = file('print.yaml', 'control-token: a-secret-of-at-least-16\njournal-size: 20\n');
    const run = spawnSync(`${root}node_modules/.bin/tsx`, ['src/cli/main.ts', 'serve', '--config', yaml, '--print-config', '--port', '0'], { cwd: root, encoding: 'utf8', timeout: 30_000, env: { ...process.env, SIM_QUIET: '1' } });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(`control-token: "…"  # ${yaml}`);
    expect(run.stdout).toContain(`journal-size: "20"  # ${yaml}`);
    expect(run.stdout).toContain('quiet: true  # SIM_QUIET');
    expect(run.stdout).toContain('port: "0"  # --port');
    expect(run.stdout).not.toContain('a-secret');
  }, 40_000);
});
