import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './markdown.js';

/**
 * The commands a guide's blocks call in a reader's own project, kept off the registry's latest
 * versions: `npm install` installs what the block names, each package at the version this
 * repository uses (from the npm cache; the package itself is the packed tarball), so a package
 * the install line leaves out is missing as it would be for the reader; `npx <bin>` runs only
 * what the project installed; `curl` fails on an HTTP error as in the repository's run.
 */
export function projectShims(workDir: string, tarball: string, curl: string): string {
  const bin = join(workDir, '.doc-bin');
  mkdirSync(bin, { recursive: true });
  const installed = join(workDir, 'node_modules/.bin');
  const shims: Record<string, string> = {
    npx: `while [ "\${1:-}" != "\${1#-}" ]; do shift; done
cmd="$1"; shift
[ -x ${JSON.stringify(installed)}/"$cmd" ] && exec ${JSON.stringify(installed)}/"$cmd" "$@"
echo "$cmd is not installed in this project: the guide's install block must list its package" >&2
exit 127
`,
    npm: `real=$(PATH="\${PATH#*:}" command -v npm)
case "\${1:-}" in install|i|add) ;; *) exec "$real" "$@" ;; esac
shift
specs=()
for arg in "$@"; do
  case "$arg" in
    -*) specs+=("$arg") ;;
    content-service-simulator) specs+=(${JSON.stringify(tarball)}) ;;
    @*@*|[!@]*@*) specs+=("$arg") ;;
    *)
      version=""
      for dir in ${JSON.stringify(join(root, 'node_modules'))} ${JSON.stringify(join(root, 'test/runtimes/node_modules'))}; do
        [ -f "$dir/$arg/package.json" ] && version=$(node -p 'require(process.argv[1]).version' "$dir/$arg/package.json") && break
      done
      [ -n "$version" ] || { echo "npm install $arg: not a dependency of this repository, so not in its npm cache" >&2; exit 1; }
      specs+=("$arg@$version") ;;
  esac
done
exec "$real" install --prefer-offline --no-audit --no-fund --no-update-notifier --loglevel=error "\${specs[@]}"
`,
    curl,
  };
  for (const [name, body] of Object.entries(shims)) {
    writeFileSync(join(bin, name), `#!/usr/bin/env bash\n${body}`);
    chmodSync(join(bin, name), 0o755);
  }
  return bin;
}
