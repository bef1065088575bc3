/**
 * `npm run mutation`: runs Stryker (test/mutation/stryker.config.mjs) on Node 22 from
 * test/runtimes, at a low priority and one test process, then prints the score per folder of
 * src/ and every survivor (test/mutation/score.ts). Arguments after `--` go to Stryker, e.g.
 * `npm run mutation -- --mutate src/ledger/ledger.ts`; `npm run mutation -- --report` only
 * prints the last report again.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureRuntimes, runtimesSupported } from '../support/runtimes.js';
import { MUTATE } from './sample.mjs';
import { INCREMENTAL_FILE, inSample, REPORT_FILE, scoreReport } from './score.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Node 22 and Stryker from test/runtimes, installed first when they are not there yet. */
function strykerCommand(): { node: string; stryker: string } {
  const paths = (modules: string) => ({ node: join(modules, 'node22/bin/node'), stryker: join(modules, '@stryker-mutator/core/bin/stryker.js') });
  const present = paths(join(root, 'test/runtimes/node_modules'));
  if (existsSync(present.node) && existsSync(present.stryker)) return present;
  if (!runtimesSupported) throw new Error('npm run mutation needs Node 22 from test/runtimes, which installs on Linux x64 only');
  return paths(ensureRuntimes());
}

const args = process.argv.slice(2);
if (!args.includes('--report')) {
  const { node, stryker } = strykerCommand();
  const run = spawnSync('nice', ['-n', '10', node, stryker, 'run', 'test/mutation/stryker.config.mjs', ...args], { cwd: root, stdio: 'inherit' });
  if (run.status !== 0) process.exit(run.status ?? 1);
}
// The final report when the run finished; after an interrupted run, the results Stryker kept (incremental.json).
const newest = [REPORT_FILE, INCREMENTAL_FILE].map((f) => join(root, f)).filter(existsSync).sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
if (!newest) throw new Error(`no mutation report at ${REPORT_FILE}: run npm run mutation first`);
// Scored over what was mutated: the sample, or the files MUTATE names instead (as the config reads it).
const mutated = process.env.MUTATE ? process.env.MUTATE.split(',') : MUTATE;
const { text, score } = scoreReport(inSample(JSON.parse(readFileSync(newest, 'utf8')), mutated));
console.log(`${text}\n\n(from ${newest.slice(root.length)})`);
process.exitCode = score === null ? 1 : 0;
