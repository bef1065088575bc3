/**
 * openapi.yaml as other tools read it: Specmatic loads it without an error, and the types
 * openapi-typescript generates read every kind's kindData with full types (a future contract
 * change that breaks SDK generation fails here). The tools live in test/runtimes (pretest).
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..');
const runtimes = join(root, 'test/runtimes/node_modules');
const work = mkdtempSync(join(tmpdir(), 'contract-tools-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

type Outcome = { code: number; stdout: string; stderr: string };
const outcome = (p: Promise<{ stdout: string; stderr: string }>): Promise<Outcome> =>
  p.then((r) => ({ code: 0, ...r })).catch((e: { code?: number; stdout?: string; stderr?: string }) => ({ code: e.code ?? 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' }));

describe('Specmatic', () => {
  it('loads openapi.yaml with no error', async () => {
    const dir = join(work, 'specmatic');
    mkdirSync(join(dir, 'openapi_examples'), { recursive: true }); // no external examples: only the contract is read
    copyFileSync(join(root, 'openapi.yaml'), join(dir, 'openapi.yaml'));
    const result = await outcome(run('java', ['-jar', join(runtimes, 'specmatic/specmatic.jar'), 'examples', 'validate', '--spec-file', join(dir, 'openapi.yaml')], {
      cwd: dir, env: { ...process.env, SPECMATIC_DISABLE_TELEMETRY: 'true' }, maxBuffer: 64 << 20, timeout: 120_000,
    }));
    const output = `${result.stdout}\n${result.stderr}`;
    expect(output).not.toMatch(/Exception|ERROR/);
    expect(result.code, output.slice(-2000)).toBe(0);
  }, 150_000);
});

describe('openapi-typescript', () => {
  it('generates types that read each kind\'s kindData, narrowed by kind, and require one of the alternatives of a request', async () => {
    const dir = join(work, 'oat');
    mkdirSync(dir, { recursive: true });
    await run(process.execPath, [join(runtimes, 'openapi-typescript/bin/cli.js'), join(root, 'openapi.yaml'), '-o', join(dir, 'api.d.ts')], { cwd: dir, timeout: 60_000 });
    writeFileSync(join(dir, 'reader.ts'), [
      "import type { components } from './api.js';",
      "type Deliverable = components['schemas']['Deliverable'];",
      '/** One field of each kind\'s kindData; does not compile if kindData loses its types. */',
      'export function describe(d: Deliverable): string {',
      '  switch (d.kind) {',
      "    case 'blog': return `${d.kindData.sections.length} ${d.kindData.readingTimeMinutes.toFixed(0)}`;",
      "    case 'web_page': return d.kindData.headline.toUpperCase();",
      "    case 'news': return d.kindData.lede.trim();",
      "    case 'how_to': return `${d.kindData.steps.length} ${d.kindData.estimatedMinutes.toFixed(0)}`;",
      "    case 'doc': return String(d.kindData.sections.length);",
      "    case 'resource': return `${d.kindData.format} ${d.kindData.items.length}`;",
      "    case 'image': return String(d.kindData.images.length);",
      "    case 'social': return String(d.kindData.posts.length);",
      "    case 'email': return d.kindData.subject.trim();",
      "    case 'press_release': return `${d.kindData.headline.trim()} ${d.kindData.quotes.length}`;",
      '  }',
      '}',
      "// @ts-expect-error a blog's kindData has no subject",
      "export const wrong = (d: Deliverable) => d.kind === 'blog' && d.kindData.subject;",
      "type Schemas = components['schemas'];",
      "export const topics: Schemas['TopicSuggestionRequest'][] = [{ targetId: 'x', count: 5 }, { phrase: 'p', count: 3 }];",
      "export const logos: Schemas['ImageLogoInput'][] = [{ targetId: 'x' }, { text: 'Acme', position: 'top-left' }];",
      "// @ts-expect-error a topic request needs a target or a phrase",
      "export const noTopic: Schemas['TopicSuggestionRequest'] = { count: 3 };",
      "// @ts-expect-error a logo needs a target or a text",
      "export const noLogo: Schemas['ImageLogoInput'] = { position: 'top-left' };",
      '',
    ].join('\n'));
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', skipLibCheck: false, types: [] },
      files: ['reader.ts', 'api.d.ts'],
    }));
    const result = await outcome(run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', dir], { cwd: dir, timeout: 60_000 }));
    expect(result.stdout).toBe('');
    expect(result.code).toBe(0);
  }, 120_000);
});
