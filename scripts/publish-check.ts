/**
 * Run by `npm publish` before it packs (`prepublishOnly`): says what would make the publish fail
 * at the registry, or make a package nobody can trust, before anything is uploaded.
 *
 * With `--provenance` the registry links the package to the repository that built it and
 * refuses the upload when `repository.url` is missing or names another repository. This
 * repository has no public address of its own written in package.json, so whoever publishes
 * sets it once (`npm pkg set repository.url=…`); this check says so in one line instead of a
 * registry error after the build.
 *
 *   tsx scripts/publish-check.ts
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface PublishManifest {
  name?: string;
  version?: string;
  license?: string;
  repository?: string | { type?: string; url?: string };
  files?: string[];
}

/** What stands in the way of publishing `manifest`; `provenance`: whether the publish signs its origin. */
export function publishProblems(manifest: PublishManifest, provenance: boolean): string[] {
  const problems: string[] = [];
  if (!manifest.name || !manifest.version) problems.push('package.json needs a name and a version');
  if (!manifest.license) problems.push('package.json needs a license');
  if (!manifest.files?.length) problems.push('package.json needs "files": without it every file of the repository is published');
  const url = typeof manifest.repository === 'string' ? manifest.repository : manifest.repository?.url;
  if (provenance && !url) {
    problems.push(
      '--provenance needs package.json\'s repository.url, the repository this is published from: ' +
        'npm pkg set repository.type=git repository.url=git+https://github.com/OWNER/REPO.git',
    );
  }
  if (provenance && url && !/^git\+https:\/\/|^https:\/\//.test(url)) {
    problems.push(`--provenance needs an https repository.url (git+https://github.com/OWNER/REPO.git), not ${url}`);
  }
  return problems;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as PublishManifest;
  // npm passes its flags on to scripts as npm_config_* variables.
  const problems = publishProblems(manifest, process.env.npm_config_provenance === 'true');
  for (const problem of problems) process.stderr.write(`publish: ${problem}\n`);
  process.exitCode = problems.length > 0 ? 1 : 0;
}
