import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { createAjv } from '../src/contract/ajv.js';
import { harness } from './support/harness.js';

/**
 * A media contact's address is checked by the contract's own rule: the simulator accepts
 * exactly what openapi.yaml's `MediaContact.email` accepts, and that rule stays within RFC
 * 5321's limits (64 characters before the @, 63 per domain label), so an address it takes never
 * breaks the `email` format of the responses that later carry it.
 */
const contract = parse(readFileSync(join(import.meta.dirname, '../openapi.yaml'), 'utf8'));
const ajv = createAjv();
ajv.addSchema(contract, 'service');
const contractAccepts = (email: string) => ajv.validate({ $ref: 'service#/components/schemas/MediaContact' }, { name: 'Press', email });

/** RFC 5321 §4.5.3.1: the limits every strict `email` format checker applies. */
function withinRfc5321(email: string): boolean {
  const [local, domain] = email.split('@') as [string, string];
  return local.length <= 64 && domain.split('.').every((label) => label.length <= 63) && email.length <= 254;
}

const cases: Array<[string, string, boolean]> = [
  ['a 64-character local part', `${'a'.repeat(64)}@acme.example`, true],
  ['a 75-character local part', `${'a'.repeat(75)}@acme.example`, false],
  ['a 65-character local part of dotted words', `${'ab.'.repeat(21)}ab@acme.example`, false],
  ['a 64-character local part of three dotted words', `${'a'.repeat(32)}.${'b'.repeat(15)}.${'c'.repeat(15)}@acme.example`, true],
  ['a 41-character domain label', `press@${'d'.repeat(41)}.example`, true],
  ['three labels and a top-level domain', `press@${'d'.repeat(41)}.${'e'.repeat(41)}.${'f'.repeat(41)}.${'t'.repeat(63)}`, true],
  ['a 42-character domain label (narrower than RFC 5321, never past it)', `press@${'d'.repeat(42)}.example`, false],
  ['four labels and a top-level domain', 'press@a.b.c.d.example', false],
  ['a 64-character top-level domain', `press@acme.${'e'.repeat(64)}`, false],
  ['a plain address', 'press.office+news@acme-roasters.example', true],
];

describe('a media contact\'s email address', () => {
  it.each(cases)('%s: the contract and the simulator agree, and RFC 5321 with them', async (_, email, valid) => {
    expect(contractAccepts(email)).toBe(valid);
    // The contract's rule never takes what RFC 5321 refuses (it may refuse what RFC 5321 takes).
    if (valid) expect(withinRfc5321(email)).toBe(true);
    const h = harness();
    const res = await h.post('/api/v1/targets', { name: 'Acme', slug: 'acme', brandKit: { pressRelease: { mediaContact: { name: 'Press', email } } } });
    if (valid) {
      expect(res.status).toBe(201);
    } else {
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
      expect(res.body.details.fields).toContainEqual({ path: 'body.brandKit.pressRelease.mediaContact.email', message: expect.stringMatching(/must match pattern/) });
    }
  });

  it('taken at 64 characters, is carried by every later response in the contract\'s format', async () => {
    const email = `${'p'.repeat(64)}@acme.example`;
    const h = harness({ speed: 'instant' });
    const target = await h.post('/api/v1/targets', { name: 'Acme', slug: 'acme', brandKit: { pressRelease: { mediaContact: { name: 'Press', email } } } });
    const buildId = await h.build({ targetId: target.body.id, kind: 'press_release', objective: 'Announce the spring roast' });
    h.advance(3_600_000);
    // Each response is validated against openapi.yaml by the harness; the address stays one RFC 5321 accepts.
    const read = await h.get(`/api/v1/targets/${target.body.id}`);
    const build = await h.get(`/api/v1/builds/${buildId}`);
    const deliverable = await h.get(`/api/v1/deliverables/${build.body.deliverables[0].id}`);
    expect(read.body.brandKit.pressRelease.mediaContact.email).toBe(email);
    expect(deliverable.status).toBe(200);
    expect(deliverable.text).toContain(email);
    const carried = [...new Set(`${read.text}${build.text}${deliverable.text}`.match(/[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g))];
    expect(carried.length).toBeGreaterThan(0);
    for (const address of carried) expect(withinRfc5321(address), address).toBe(true);
  });
});
