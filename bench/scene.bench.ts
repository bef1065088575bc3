/**
 * The time `content-contracts scene` takes to turn a 1,000-call recording into a scene and its
 * mapping: in-process (read, observe, write; median of rounds) and as the command runs (its own
 * process, from start to exit). The recording is a client's long session on one account, made
 * against an in-process simulator and written as the recording proxy writes HAR (secrets cut):
 * targets, library items, builds polled to the end, deliverables downloaded, share links, images,
 * the balance and lists between. The requirement: under 5 s on the 2-core development machine.
 *
 *   npm run bench                                   # includes this
 *   BENCH_SCENE_CALLS=1000 BENCH_SCENE_ROUNDS=5 tsx bench/scene.bench.ts
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readHar } from '../contracts/shared/har.js';
import { writeScene } from '../contracts/scene/command.js';
import { makeScene } from '../contracts/scene/scene.js';
import { InProcessRecording } from '../test/scene/in-process-har.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const CALLS = Number(process.env.BENCH_SCENE_CALLS ?? 1000);
const ROUNDS = Number(process.env.BENCH_SCENE_ROUNDS ?? 5);

function record(file: string): number {
  const recording = new InProcessRecording();
  let calls = 0;
  const call = (method: string, url: string, body?: unknown): any => {
    const answer = recording.call(method, url, undefined, body);
    if (++calls % 5 === 0) recording.advance(15_000);
    return answer;
  };
  call('POST', '/api/v1/tokens/purchases', { bundleId: 'scale' });
  let target: any;
  let build: string | undefined;
  for (let n = 0; calls < CALLS; n++) {
    if (!target || n % 40 === 0) {
      target = call('POST', '/api/v1/targets', { name: `Bench ${n}`, slug: `bench-${n}`, brandKit: { voice: 'plain', tone: 'calm' } });
      call('POST', `/api/v1/targets/${target.id}/library`, { name: `Item ${n}`, type: 'cta', content: 'Try it.' });
    }
    if (!build) build = call('POST', '/api/v1/builds', { targetId: target.id, kind: n % 2 ? 'blog' : 'news', objective: `Bench ${n}${n % 7 === 0 ? ' [fail:drafting]' : ''}` }).buildId;
    else if (n % 2 === 0) {
      const answer = call('GET', `/api/v1/builds/${build}`);
      if (answer.build.status === 'failed') build = undefined;
      else if (answer.build.status === 'completed') {
        const deliverable = answer.deliverables[0].id;
        call('GET', `/api/v1/deliverables/${deliverable}/download?format=md`);
        if (n % 3 === 0) call('POST', `/api/v1/deliverables/${deliverable}/shares`, {});
        if (n % 5 === 0) call('POST', '/api/v1/images', { prompt: `Bench image ${n}` });
        build = undefined;
      }
    } else call('GET', n % 3 === 0 ? '/api/v1/targets' : n % 3 === 1 ? '/api/v1/builds' : '/api/v1/tokens/balance');
  }
  writeFileSync(file, JSON.stringify(recording.har()));
  return calls;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

function main(): void {
  const dir = mkdtempSync(join(tmpdir(), 'scene-bench-'));
  const file = join(dir, 'session.har');
  const calls = record(file);
  const times: number[] = [];
  let summary = '';
  for (let round = 0; round < ROUNDS; round++) {
    const started = performance.now();
    const scene = makeScene(readHar(file), { recording: file });
    const files = writeScene(scene, join(dir, 'scene.yaml'));
    times.push(performance.now() - started);
    const account = scene.scenario.accounts[0]!;
    summary = `${account.targets?.length ?? 0} targets, ${account.builds?.length ?? 0} builds, ${scene.mapping.objects.length} named objects, ${readFileSync(files.scene).length} bytes of YAML`;
  }
  const started = performance.now();
  // The command as installed (dist/, after npm run build), else from source through tsx (which adds its compile time).
  const built = existsSync(join(root, 'dist/contracts/run.js'));
  const [bin, ...args] = built ? [process.execPath, 'dist/contracts/run.js'] : [`${root}node_modules/.bin/tsx`, 'contracts/run.ts'];
  const run = spawnSync(bin!, [...args, 'scene', '--har', file, '--out', join(dir, 'cli.yaml')], { cwd: root, encoding: 'utf8' });
  const command = performance.now() - started;
  if (run.status !== 0) throw new Error(`the command exited ${run.status}: ${run.stderr}`);
  const ms = median(times);
  console.log(`scene: ${calls}-call recording → ${summary}`);
  console.log(`  in-process: ${(ms / 1000).toFixed(2)} s median (rounds ${(Math.min(...times) / 1000).toFixed(2)}–${(Math.max(...times) / 1000).toFixed(2)}); the command (${built ? 'dist' : 'tsx'}, from start to exit): ${(command / 1000).toFixed(2)} s; requirement: under 5 s`);
  if (command > 5000) process.exitCode = 1;
}

main();
