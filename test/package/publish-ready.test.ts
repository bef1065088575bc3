import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { publishProblems } from '../../scripts/publish-check.js';
import { repeatRun } from '../support/once.js';
import { npmEnv, root, run } from './packed.js';

/**
 * The package as `npm publish` would upload it: what it ships (and nothing of the repository
 * besides), with no warning from npm, and the check that stops a provenance publish that the
 * registry would refuse.
 */
const failure = (e: unknown) => e as { code: number; stdout: string; stderr: string };

describe.skipIf(repeatRun)('publishing', () => {
  it('ships the build, the contracts, the scenario schema and the papers a package needs, with no npm warning', async () => {
    // The build is there already (npm ci ran `prepare`): scripts are left out so nothing is built twice.
    const { stdout, stderr } = await run('npm', ['publish', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, env: npmEnv, maxBuffer: 1 << 26 });
    const packed = JSON.parse(stdout.slice(stdout.indexOf('{'))) as Record<string, { files: Array<{ path: string }> }>;
    const files = Object.values(packed)[0]!.files.map((f) => f.path);
    for (const needed of ['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md', 'openapi.yaml', 'simulator-control.yaml', 'scenario.schema.json', 'serve-config.schema.json', 'dist/cli/main.js', 'dist/contracts/run.js', 'dist/index.d.ts', 'dist/browser/msw-rest.js']) {
      expect(files, needed).toContain(needed);
    }
    const outside = files.filter((f) => !/^(dist\/|[^/]+$)/.test(f));
    expect(outside, 'files outside dist/ and the top level').toEqual([]);
    expect(files.filter((f) => /\.test\.|\.tsbuildinfo$|^\.|\/\./.test(f)), 'tests and hidden files').toEqual([]);
    // Only the dry run's own notice that nobody is logged in may be warned about.
    const warnings = stderr.split('\n').filter((line) => /npm warn/i.test(line) && !/logged in/.test(line));
    expect(warnings).toEqual([]);
  }, 120_000);

  it('stops a provenance publish without a repository URL in one line that says how to set it', async () => {
    const named = Boolean((JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { repository?: unknown }).repository);
    const provenance = await run('npm', ['run', 'prepublishOnly', '--silent'], { cwd: root, env: { ...npmEnv, npm_config_provenance: 'true' } }).then(
      () => ({ code: 0, stderr: '' }),
      failure,
    );
    if (named) {
      expect(provenance).toEqual({ code: 0, stderr: '' });
    } else {
      expect(provenance.code).toBe(1);
      expect(provenance.stderr.trim()).toBe(
        "publish: --provenance needs package.json's repository.url, the repository this is published from: npm pkg set repository.type=git repository.url=git+https://github.com/OWNER/REPO.git",
      );
    }
    // Without provenance the manifest publishes either way.
    await expect(run('npm', ['run', 'prepublishOnly', '--silent'], { cwd: root, env: npmEnv })).resolves.toBeDefined();
  }, 60_000);

  it('lets a provenance publish through once the repository is named, and only over https', () => {
    const manifest = { name: 'content-service-simulator', version: '1.0.0', license: 'MIT', files: ['dist'] };
    expect(publishProblems({ ...manifest, repository: { type: 'git', url: 'git+https://github.com/example/simulator.git' } }, true)).toEqual([]);
    expect(publishProblems({ ...manifest, repository: 'git@github.com:example/simulator.git' }, true).join()).toMatch(/needs an https repository\.url/);
    expect(publishProblems({ ...manifest, files: [] }, false).join()).toMatch(/needs "files"/);
  });
});
