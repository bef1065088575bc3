import { existsSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { readHar } from '../shared/har.js';
import { formatDrift } from '../drift/index.js';
import { checkScene, type SceneCheck } from './check.js';
import { fillMapping, readLoadAnswer, readMapping } from './mapping.js';
import { makeScene } from './scene.js';
import type { Scene } from './types.js';
import { sceneYaml } from './write.js';

export const SCENE_USAGE = `Usage: content-contracts scene --har <file> [--out scene.yaml] [options]

Turns a recording (HAR 1.2: from content-contracts proxy --record, from the simulator's
GET /_sim/journal?format=har, or a browser's export) into a scenario the simulator loads: per
account seen, the last state the recording shows (balance, keys by role, targets and brand
kits, library items, builds at their last status, share links, listen versions, images, chats,
the account's clock at its last call). What it leaves out, or cannot state, is written as
comments above each account. No recorded secret is carried over: keys and share links are new
on every load. Beside the scene, <name>.map.json maps each recorded id to its scenario name.

  --har <file>            the recording (required, except with --map-loaded)
  --out <file>            the scene to write (default scene.yaml); the mapping goes beside it
  --name <name>           the scenario's name (default: scene <recording's file name>)
  --redact-text           replace user text (names, descriptions, objectives, prompts, messages)
                          with generated text of the same shape and length
  --check-against <url>   load the scene into the simulator at <url> (POST /_sim/scenarios), replay
                          the recording's last read of each URL against it with ids and keys mapped,
                          and report every difference as drift does; reads the scene cannot answer
                          as recorded are listed with why. Fills the mapping's new ids. Exits 1 on drift
  --map-loaded <file>     fill the mapping beside --out with the new ids of a load answer (the JSON
                          POST /_sim/scenarios or simulator.loadScenario() answered), then exit`;

export function mappingFileFor(out: string): string {
  return join(dirname(out), `${basename(out).replace(/\.(ya?ml|json)$/i, '')}.map.json`);
}

/** Writes a scene and its mapping (the programmatic form of the command): the files written. */
export function writeScene(scene: Scene, out: string): { scene: string; mapping: string } {
  const mapping = mappingFileFor(out);
  writeFileSync(out, /\.json$/i.test(out) ? `${JSON.stringify(scene.scenario, null, 2)}\n` : sceneYaml(scene, basename(mapping)));
  writeFileSync(mapping, `${JSON.stringify(scene.mapping, null, 2)}\n`);
  return { scene: out, mapping };
}

export function formatSceneCheck(check: SceneCheck): string {
  const lines = [`Round trip: the scene loaded into ${check.target}; ${check.replayed} read(s) replayed (the last of each URL), ${check.superseded} earlier read(s) of the same URLs not replayed`];
  const skipped = Object.entries(check.skipped);
  if (skipped.length) lines.push(`not replayed: ${skipped.map(([why, n]) => `${n} (${why})`).join(', ')}`);
  if (check.excluded.length) lines.push('', `EXCLUDED READS (${check.excluded.length}), which the scene cannot answer as recorded:`, ...check.excluded.map((x) => `  - #${x.call} ${x.method} ${x.url}: ${x.why}`));
  if (check.writes.length) lines.push('', `WRITES THAT DEPEND ON WHAT THE SCENE LEAVES OUT (${check.writes.length}):`, ...check.writes.map((x) => `  - #${x.call} ${x.method} ${x.url}: ${x.why}`));
  if (check.drifts.length) lines.push('', `DRIFT (${check.drifts.length}):`, ...check.drifts.map((d) => `  ✗ ${formatDrift(d).slice(0, 400)}`));
  lines.push('', `contracts scene: ${check.drifts.length} difference(s) between the recording and the scene`);
  return lines.join('\n');
}

export async function runSceneCommand(argv: string[]): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({ args: argv, options: { har: { type: 'string' }, out: { type: 'string' }, name: { type: 'string' }, 'redact-text': { type: 'boolean' }, 'check-against': { type: 'string' }, 'map-loaded': { type: 'string' }, help: { type: 'boolean' } } }));
  } catch (e) {
    process.stderr.write(`contracts scene: ${(e as Error).message}\n\n${SCENE_USAGE}\n`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(`${SCENE_USAGE}\n`);
    return 0;
  }
  const out = resolve((values.out as string | undefined) ?? 'scene.yaml');
  const against = values['check-against'] as string | undefined;
  const problem = values['map-loaded'] !== undefined
    ? (values.har !== undefined || against !== undefined ? '--map-loaded fills an existing mapping: give it with --out only' : !existsSync(mappingFileFor(out)) ? `no mapping at ${mappingFileFor(out)}: make the scene first` : undefined)
    : !values.har
      ? '--har is required'
      : against !== undefined && !/^https?:\/\//.test(against)
        ? `--check-against must be an http(s) URL, not ${against}`
        : undefined;
  if (problem) {
    process.stderr.write(`contracts scene: ${problem}\n\n${SCENE_USAGE}\n`);
    return 2;
  }
  try {
    if (values['map-loaded'] !== undefined) {
      const file = mappingFileFor(out);
      const filled = fillMapping(readMapping(file), readLoadAnswer(resolve(values['map-loaded'] as string)));
      writeFileSync(file, `${JSON.stringify(filled, null, 2)}\n`);
      const n = filled.objects.filter((o) => o.loaded).length;
      process.stdout.write(`contracts scene: ${n} of ${filled.objects.length} recorded ids mapped to their new ids in ${file}\n`);
      return 0;
    }
    const file = resolve(values.har as string);
    const har = readHar(file);
    const scene = makeScene(har, { recording: file, name: values.name as string | undefined, redactText: values['redact-text'] === true });
    const files = writeScene(scene, out);
    const notes = Object.values(scene.notes).flat();
    process.stdout.write(`contracts scene: ${scene.scenario.accounts.length} account(s), ${scene.mapping.objects.length} named object(s), ${notes.filter((n) => n.kind === 'left out').length} left out and ${notes.filter((n) => n.kind === 'cannot state').length} that a scenario cannot state (comments in the scene)\nScene: ${files.scene}\nMapping: ${files.mapping}\n`);
    if (against === undefined) return 0;
    const check = await checkScene({ har, scene, baseUrl: against });
    writeFileSync(files.mapping, `${JSON.stringify(check.mapping, null, 2)}\n`);
    process.stdout.write(`${formatSceneCheck(check)}\n`);
    return check.drifts.length > 0 ? 1 : 0;
  } catch (e) {
    process.stderr.write(`contracts scene: ${(e as Error).message}\n`);
    return 2;
  }
}

