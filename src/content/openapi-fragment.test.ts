import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { generateContent } from './generate.js';
import { sampleInput } from './sample-input.js';
import { CONTENT_KINDS, type ContentKind } from './types.js';

const fragment = parse(readFileSync(new URL('./openapi-fragment.yaml', import.meta.url), 'utf8')) as { schemas: Record<string, unknown> };
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addSchema({ components: { schemas: fragment.schemas } }, 'fragment');

const KIND_SCHEMA: Record<ContentKind, string> = {
  blog: 'BlogKindData',
  web_page: 'WebPageKindData',
  news: 'NewsKindData',
  how_to: 'HowToKindData',
  doc: 'DocKindData',
  resource: 'ResourceKindData',
  image: 'ImageKindData',
  social: 'SocialKindData',
  email: 'EmailKindData',
  press_release: 'PressReleaseKindData',
};

function validate(schema: string, value: unknown): string[] {
  const check = ajv.getSchema(`fragment#/components/schemas/${schema}`);
  if (!check) throw new Error(`no schema ${schema}`);
  return check(value) ? [] : (check.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

describe('openapi-fragment.yaml', () => {
  it.each(CONTENT_KINDS)('describes exactly what %s emits', (kind) => {
    for (const [i, overrides] of [{}, { qualityMode: 'premium', generateImages: true, socialPlatforms: ['x', 'threads', 'linkedin', 'facebook', 'instagram'] }].entries()) {
      const out = generateContent(sampleInput({ kind, deliverableId: `schema-${i}`, ...(overrides as object) }));
      expect(validate(KIND_SCHEMA[kind], out.kindData)).toEqual([]);
      for (const source of out.sources) expect(validate('Source', source)).toEqual([]);
      for (const claim of out.claims) expect(validate('Claim', claim)).toEqual([]);
      for (const image of out.images) expect(validate('GeneratedImage', image)).toEqual([]);
    }
  });

  it('rejects properties a kind does not emit', () => {
    const out = generateContent(sampleInput());
    expect(validate('BlogKindData', { ...out.kindData, extra: 1 })).not.toEqual([]);
    expect(validate('Claim', { ...out.claims[0], verdict: 'maybe' })).not.toEqual([]);
  });

  it('accepts a press release without a media contact', () => {
    const target = structuredClone(sampleInput().target);
    target.brandKit.pressRelease.mediaContact = null;
    const out = generateContent(sampleInput({ kind: 'press_release', target }));
    expect(validate('PressReleaseKindData', out.kindData)).toEqual([]);
  });
});
