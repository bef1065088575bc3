#!/usr/bin/env bash
# Checks a server against the Content Generation Service contract in CI, or runs your own
# tests against a simulator started for them. Copy this file into your repository (for
# example as ci/contract-check.sh); it needs bash, npm and Node >= 20.19, nothing else.
#
#   ci/contract-check.sh              install, start content-sim, run content-contracts, stop
#   ci/contract-check.sh npm test     the same, but run `npm test` (any command) instead of
#                                     content-contracts, with CONTENT_SIM_URL exported
#
# Settings (environment):
#   CONTENT_SIM_PACKAGE    what npm installs (required unless CONTENT_SIM_INSTALL=0): a tarball
#                          made by `npm pack` in a clone of the simulator and committed to your
#                          repository, or the simulator's git URL (git+https://…#tag, built on
#                          install); the package is not on the npm registry
#   CONTENT_SIM_PREFIX     where it is installed, away from your project's dependencies
#                          (default $RUNNER_TEMP/content-sim, or $TMPDIR/content-sim)
#   CONTENT_SIM_INSTALL    0: do not install, use the commands already in $CONTENT_SIM_PREFIX
#   CONTENT_SIM_PORT       the simulator's port on 127.0.0.1 (default 4010)
#   CONTENT_SIM_SEED       its seed: same seed, same ids and demo keys (default ci)
#   CONTENT_SIM_ARGS       more content-sim options, split on spaces (e.g. --speed instant,
#                          --state-file fixtures/ci-state.json)
#   CONTENT_SIM_READY_TIMEOUT  seconds to wait for /readyz (default 30)
#   CONTENT_SIM_STOP_TIMEOUT   seconds to wait for it to stop after SIGTERM (default 15)
#   CONTRACT_LEVEL         documented or strict (default strict)
#   CONTRACT_REPORT_DIR    where the reports go (default reports): contracts-junit.xml,
#                          contracts-summary.json, contracts-coverage.json, content-sim.log
#   CONTRACT_BASE_URL      set it to check another server (your implementation, the real
#                          service): no simulator is started. Give its keys in CONTRACT_KEY_*
#   Every other CONTRACT_* variable reaches content-contracts (see content-contracts --help).
#
# Exit code: that of content-contracts (0 passed, 1 a check failed, 2 it could not run) or of
# your command; 3 when the simulator could not be installed or started; 4 when everything
# passed but the simulator did not stop cleanly.
set -u -o pipefail

package="${CONTENT_SIM_PACKAGE:-}"
prefix="${CONTENT_SIM_PREFIX:-${RUNNER_TEMP:-${TMPDIR:-/tmp}}/content-sim}"
port="${CONTENT_SIM_PORT:-4010}"
seed="${CONTENT_SIM_SEED:-ci}"
ready_timeout="${CONTENT_SIM_READY_TIMEOUT:-30}"
stop_timeout="${CONTENT_SIM_STOP_TIMEOUT:-15}"
level="${CONTRACT_LEVEL:-strict}"
report_dir="${CONTRACT_REPORT_DIR:-reports}"
target="${CONTRACT_BASE_URL:-}"
sim_pid=""

say() { printf 'contract-check: %s\n' "$*" >&2; }

# 1. Install, in a prefix of its own so that your project's package.json and lock stay as
#    they are (and a project in another language needs none). A local tarball or directory
#    is made absolute first: npm resolves relative paths against the prefix. The prefix's
#    own package.json allows this one package's install script (npm 11 asks, and a git URL
#    needs it: the package is built on install), named as npm names it: without #ref.
install_package() {
  if [ -z "$package" ]; then
    say "CONTENT_SIM_PACKAGE is not set: give npm a tarball (npm pack in a clone of the simulator, committed to your repository) or the simulator's git URL (git+https://…#tag)"
    return 1
  fi
  mkdir -p "$prefix" || return 1
  local spec="$package"
  if [ -e "$spec" ]; then spec="file:$(cd "$(dirname "$spec")" && pwd)/$(basename "$spec")"; fi
  if [ ! -f "$prefix/package.json" ] || grep -q '"name": "content-sim-tools"' "$prefix/package.json"; then
    node -e 'const [file, allowed] = process.argv.slice(1);
      require("fs").writeFileSync(file, JSON.stringify({ name: "content-sim-tools", private: true, allowScripts: { [allowed]: true } }, null, 2) + "\n");' \
      "$prefix/package.json" "${spec%%#*}" || return 1
  fi
  say "installing $spec into $prefix"
  npm install --prefix "$prefix" --no-audit --no-fund --no-save "$spec" >&2
}

# GET a URL and succeed on a 2xx. Node rather than curl: it is there wherever the simulator
# runs, slim container images included.
probe() {
  node -e 'fetch(process.argv[1], { signal: AbortSignal.timeout(2000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))' "$1"
}

# 2. Start the simulator in the background on loopback, its log (requests included) kept
#    beside the reports, and wait for /readyz, bounded in time.
start_simulator() {
  local url="http://127.0.0.1:$port"
  if probe "$url/readyz"; then
    say "something already answers on port $port: choose another with CONTENT_SIM_PORT"
    return 1
  fi
  # shellcheck disable=SC2086 # CONTENT_SIM_ARGS is a list of options, split on purpose
  "$bin/content-sim" serve --host 127.0.0.1 --port "$port" --seed "$seed" ${CONTENT_SIM_ARGS:-} > "$report_dir/content-sim.log" 2>&1 &
  sim_pid=$!
  local deadline=$((SECONDS + ready_timeout))
  until probe "$url/readyz"; do
    if ! kill -0 "$sim_pid" 2> /dev/null; then
      wait "$sim_pid"
      say "the simulator exited ($?) before it was ready:"
      tail -n 20 "$report_dir/content-sim.log" >&2
      sim_pid=""
      return 1
    fi
    if [ "$SECONDS" -ge "$deadline" ]; then
      say "the simulator was not ready after ${ready_timeout} s:"
      tail -n 20 "$report_dir/content-sim.log" >&2
      return 1
    fi
    sleep 0.2
  done
  say "simulator ready at $url (pid $sim_pid, log $report_dir/content-sim.log)"
}

# 3. Stop it the way an orchestrator does: SIGTERM, which drains and exits 0; SIGKILL only
#    when it has not gone within the stop timeout. Fails unless it exited 0.
stop_simulator() {
  [ -n "$sim_pid" ] || return 0
  local pid="$sim_pid" deadline=$((SECONDS + stop_timeout)) code=0
  sim_pid=""
  kill -TERM "$pid" 2> /dev/null || true
  while kill -0 "$pid" 2> /dev/null; do
    if [ "$SECONDS" -ge "$deadline" ]; then
      say "the simulator did not stop within ${stop_timeout} s of SIGTERM: killing it"
      kill -KILL "$pid" 2> /dev/null || true
      break
    fi
    sleep 0.1
  done
  wait "$pid" || code=$?
  if [ "$code" -ne 0 ]; then
    say "the simulator exited with $code after SIGTERM (see $report_dir/content-sim.log)"
    return 1
  fi
  say "simulator stopped"
}

# A cancelled job (SIGINT, SIGTERM) or an unexpected exit still stops the simulator.
trap 'stop_simulator' EXIT
trap 'stop_simulator; exit 130' INT
trap 'stop_simulator; exit 143' TERM

mkdir -p "$report_dir" || exit 3
if [ "${CONTENT_SIM_INSTALL:-1}" != 0 ]; then
  install_package || { [ -n "$package" ] && say "npm could not install $package"; exit 3; }
fi
bin="$prefix/node_modules/.bin"
[ -x "$bin/content-contracts" ] || { say "no content-contracts in $bin: install the package there"; exit 3; }

if [ -z "$target" ]; then
  start_simulator || exit 3
  target="http://127.0.0.1:$port"
fi

# 4. The contract suite (or your command), then the simulator's stop; the run's code wins.
if [ "$#" -gt 0 ]; then
  say "running $* against $target"
  CONTENT_SIM_URL="$target" "$@"
  code=$?
else
  "$bin/content-contracts" --base-url "$target" --level "$level" --report-dir "$report_dir"
  code=$?
  say "JUnit report: $report_dir/contracts-junit.xml"
fi
if ! stop_simulator && [ "$code" -eq 0 ]; then code=4; fi
exit "$code"
