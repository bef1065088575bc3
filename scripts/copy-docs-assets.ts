/**
 * Puts what the simulator serves from dist/web in place: the dashboard, and the API reference's
 * browser bundle (Scalar, MIT) so that the installed package serves /docs offline.
 *
 * The bundle is one self-contained file inside @scalar/api-reference's tarball. Installing that
 * package would bring its whole dependency tree, which requires Node 22 and makes `npm install`
 * warn on Node 20; so the tarball is fetched on its own (`npm pack`, through npm's cache and
 * registry settings), checked against the integrity pinned here, and the one file taken out.
 * To upgrade: change the version, run `npm view @scalar/api-reference@<version> dist.integrity`.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SCALAR = {
  spec: '@scalar/api-reference@1.72.1',
  integrity: 'sha512-XpEJ0rfc/cXbCrR+iC4kK0o/WwX2dTtGQbT049OlPKAHD6IMIFdTeGz2r+M27P2EDWKyUITRm/NzlP8z2pw/Ow==',
  file: 'package/dist/browser/standalone.js',
};

const root = fileURLToPath(new URL('..', import.meta.url));
const web = join(root, 'dist/web');
mkdirSync(web, { recursive: true });

// The pinned bundle, kept by version where build tools keep their caches, so a rebuild fetches nothing.
const cacheDir = join(root, 'node_modules/.cache/content-service-simulator');
const cached = join(cacheDir, `${SCALAR.spec.replace(/[@/]/g, '_')}.js`);
if (!existsSync(cached)) {
  mkdirSync(cacheDir, { recursive: true });
  fetchScalarBundle(cached);
}
copyFileSync(cached, join(web, 'scalar.js'));
copyFileSync(join(root, 'scripts/third-party/scalar-LICENSE.txt'), join(web, 'scalar.LICENSE.txt'));

// The dashboard: plain ES modules and a stylesheet, served as they are written.
cpSync(join(root, 'src/web/dashboard'), join(web, 'dashboard'), { recursive: true });

function fetchScalarBundle(destination: string): void {
  const work = mkdtempSync(join(tmpdir(), 'scalar-bundle-'));
  try {
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const packed = JSON.parse(
      execFileSync(npm, ['pack', SCALAR.spec, '--json', '--pack-destination', work, '--loglevel=error'], {
        encoding: 'utf8',
        shell: process.platform === 'win32',
        env: { ...process.env, npm_config_dry_run: 'false' }, // when the build runs under `npm pack --dry-run`
      }),
    ) as Array<{ filename: string }>;
    const tarball = join(work, packed[0]!.filename);
    const digest = `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`;
    if (digest !== SCALAR.integrity) throw new Error(`${SCALAR.spec}: integrity ${digest}, expected ${SCALAR.integrity}`);
    // tar ships with Linux, macOS and Windows 10 and later.
    execFileSync('tar', ['-xzf', tarball, '-C', work, SCALAR.file]);
    copyFileSync(join(work, SCALAR.file), `${destination}.partial`);
    renameSync(`${destination}.partial`, destination); // a build stopped half-way leaves no truncated bundle
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
