import type { Check } from '../check.js';
import { newestIds, readBalance, type Balance } from '../fixtures.js';
import type { Reply } from '../http-client.js';
import { expectEqual, expectThat } from '../../shared/outcomes.js';
import type { Session } from '../session.js';
import { expectStatus, mediaType } from './expect.js';

const CREATE = 'openapi.yaml: POST /api/v1/images answers 201 with the image as asked (size, width, height, colors), a cost of 1 and its fileUrl';
const CHARGE = 'openapi.yaml: an image costs 1 token, booked as an image_charge transaction (buildId null, the image id in its description): balance falls by 1, lifetimeUsed rises by 1';
const READ = 'openapi.yaml: GET /api/v1/images/{imageId} answers the image created, and the list shows it first';
const FILE = 'openapi.yaml: the image file is an SVG document served as image/svg+xml, the same bytes on every download';

/** Starts like an SVG document: an optional XML declaration, comments or doctype, then the <svg> root. */
const SVG_START = /^\uFEFF?\s*(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE svg[^>]*>\s*)?<svg[\s>]/;

interface MadeImage {
  reply: Reply;
  request: Record<string, unknown>;
  before: Balance;
  after: Balance;
  transactionsBefore: string[];
  transactionsAfter: any[];
}

function image(s: Session): Promise<MadeImage> {
  return s.fixtures.shared('an image', async () => {
    s.spend(1, 'an image');
    const before = await readBalance(s);
    const transactionsBefore = (await newestIds(s, 'listTokenTransactions', 20)).map((t) => t.id);
    const request = { prompt: `A cup of cold brew on a sunny terrace (${s.config.runId})`, style: 'flat', mood: 'calm', colors: ['#336699', '#f5deb3'], size: '1536x1024' };
    const reply = await s.client.op('createImage', {}, { body: request });
    expectStatus(reply, 201, CREATE);
    const after = await readBalance(s);
    s.tokensSpent += Math.max(0, before.balance - after.balance) - 1;
    const transactionsAfter = await newestIds(s, 'listTokenTransactions', 20);
    return { reply, request, before, after, transactionsBefore, transactionsAfter };
  });
}

/** Images (inferred by openapi.yaml; the spec names image generation and shows no endpoint). */
export function imageChecks(): Check[] {
  const spends = { level: 'strict' as const, groups: ['spend' as const] };
  return [
    {
      ...spends,
      id: 'images.create',
      title: CREATE,
      covers: ['createImage'],
      requests: 5,
      run: async (s) => {
        const { reply, request } = await image(s);
        const img = reply.json;
        expectEqual([img.prompt, img.style, img.mood, img.colors, img.size], [request.prompt, request.style, request.mood, request.colors, request.size], `${CREATE}: prompt, style, mood, colors, size as asked`);
        expectEqual([img.width, img.height, img.cost], [1536, 1024, 1], `${CREATE}: width, height and cost of a 1536x1024 image`);
        expectEqual(img.fileUrl, `/api/v1/images/${img.id}/file`, `${CREATE}: fileUrl`);
        expectEqual(reply.headers.location, `/api/v1/images/${img.id}`, `${CREATE}: Location`);
      },
    },
    {
      ...spends,
      id: 'images.charge',
      title: CHARGE,
      covers: ['createImage', 'listTokenTransactions'],
      requests: 5,
      run: async (s) => {
        const { reply, before, after, transactionsBefore, transactionsAfter } = await image(s);
        expectEqual([before.balance - after.balance, after.lifetimeUsed - before.lifetimeUsed, after.lifetimePurchased - before.lifetimePurchased], [1, 1, 0], `${CHARGE}: change of balance, lifetimeUsed, lifetimePurchased`);
        const added = transactionsAfter.filter((t) => !transactionsBefore.includes(t.id));
        expectEqual(added.length, 1, `${CHARGE}: new transactions for one image`);
        const [charge] = added;
        expectEqual([charge.type, charge.amount, charge.buildId, charge.balanceAfter], ['image_charge', -1, null, after.balance], `${CHARGE}: type, amount, buildId, balanceAfter`);
        expectThat(String(charge.description).includes(reply.json.id), `${CHARGE}: the description names the image ${reply.json.id}: got ${JSON.stringify(charge.description)}`);
      },
    },
    {
      ...spends,
      id: 'images.read',
      title: READ,
      covers: ['getImage', 'listImages'],
      requests: 7,
      run: async (s) => {
        const { reply } = await image(s);
        const fetched = await s.client.op('getImage', { imageId: reply.json.id });
        expectStatus(fetched, 200, READ);
        expectEqual(fetched.json, reply.json, `${READ}: GET answers the created image`);
        const [newest] = await newestIds(s, 'listImages', 5);
        expectEqual(newest, reply.json, `${READ}: the newest image listed`);
      },
    },
    {
      ...spends,
      id: 'images.file',
      title: FILE,
      covers: ['getImageFile'],
      requests: 7,
      run: async (s) => {
        const { reply } = await image(s);
        const file = await s.client.op('getImageFile', { imageId: reply.json.id });
        expectStatus(file, 200, FILE);
        expectEqual(mediaType(file), 'image/svg+xml', `${FILE}: Content-Type`);
        expectThat(SVG_START.test(file.text), `${FILE}: the file starts like an SVG document: got ${JSON.stringify(file.text.slice(0, 120))}`);
        expectThat(file.text.includes('http://www.w3.org/2000/svg') && /<\/svg>\s*$/.test(file.text), `${FILE}: an <svg> root in the SVG namespace, closed at the end`);
        const again = await s.client.op('getImageFile', { imageId: reply.json.id });
        expectThat(again.text === file.text, `${FILE}: a second download differs from the first`);
      },
    },
  ];
}
