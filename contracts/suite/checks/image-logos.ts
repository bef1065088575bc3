import type { Check } from '../check.js';
import { readBalance } from '../fixtures.js';
import { expectEqual } from '../../shared/outcomes.js';
import { expectError, expectStatus } from './expect.js';

export const LOGO = 'openapi.yaml: an image\'s logo overlay: with targetId it shows that target\'s name (logo.targetId the target), with text that text (logo.targetId null); another account\'s target is 404 NOT_FOUND and charges nothing';

/** The brand-logo overlay of an image (openapi.yaml, createImage, ImageLogo). */
export function imageLogoChecks(): Check[] {
  return [
    {
      id: 'images.logo',
      title: LOGO,
      level: 'strict',
      groups: ['spend'],
      roles: ['empty'],
      covers: ['createImage'],
      requests: 9,
      run: async (s) => {
        s.spend(2, 'two images with a logo');
        const target = await s.fixtures.target();
        const prompt = `A bag of coffee beans on a shelf (${s.config.runId})`;
        const byTarget = await s.client.op('createImage', {}, { body: { prompt, logo: { targetId: target.id } } });
        expectStatus(byTarget, 201, `${LOGO}: a logo of the target`);
        expectEqual([byTarget.json.logo?.text, byTarget.json.logo?.targetId], [target.name, target.id], `${LOGO}: logo text and targetId of a logo of the target`);
        const byText = await s.client.op('createImage', {}, { body: { prompt, logo: { text: 'Cold Brew Co.' } } });
        expectStatus(byText, 201, `${LOGO}: a logo of a given text`);
        expectEqual([byText.json.logo?.text, byText.json.logo?.targetId], ['Cold Brew Co.', null], `${LOGO}: logo text and targetId of a logo of a given text`);
        const { name, slug } = s.newTargetName('logo-elsewhere');
        const theirs = await s.client.op('createTarget', {}, { as: 'empty', body: { name, slug } });
        expectStatus(theirs, 201, `${LOGO}: a target of another account`);
        try {
          const before = await readBalance(s);
          expectError(await s.client.op('createImage', {}, { body: { prompt, logo: { targetId: theirs.json.id } } }), 404, 'NOT_FOUND', `${LOGO}: a logo of another account's target`);
          expectEqual(await readBalance(s), before, `${LOGO}: the balance after the refused image`);
        } finally {
          await s.client.op('deleteTarget', { targetId: theirs.json.id }, { as: 'empty' }).catch(() => undefined);
        }
      },
    },
  ];
}
