import { accountOf, editJson, is, withHeaders } from './tamper.js';
import type { Violation } from './violation.js';

/** Routes of images, audio, chat and suggestions. */
const ROUTES = {
  images: /^\/api\/v1\/images$/,
  imageFile: /^\/api\/v1\/images\/[^/]+\/file$/,
  voices: /^\/api\/v1\/audio\/voices$/,
  createAudio: /^\/api\/v1\/deliverables\/[^/]+\/audio$/,
  audioFile: /^\/api\/v1\/audio\/[^/]+\/file$/,
  chat: /^\/api\/v1\/chats\/[^/]+$/,
  topics: /^\/api\/v1\/suggestions\/topics$/,
  keywords: /^\/api\/v1\/suggestions\/keywords$/,
  quotes: /^\/api\/v1\/suggestions\/quotes$/,
} as const;

const bodyOf = (req: { body?: Uint8Array }): any => (req.body ? JSON.parse(new TextDecoder().decode(req.body)) : {});

/** Violations of the images, audio, chat and suggestion scenarios (strict level). */
export const GENERATION_VIOLATIONS: Violation[] = [
  {
    id: 'images-are-free',
    description: 'an image is not charged (its record still says cost 1)',
    rule: 'an image costs 1 token',
    wrap: (h, sim) => (req) => {
      const res = h(req);
      const account = accountOf(sim, req);
      if (is(req, 'POST', ROUTES.images) && res.status === 201 && account) {
        account.balance += 1;
        account.lifetimeUsed -= 1;
      }
      return res;
    },
  },
  {
    id: 'image-file-as-text',
    description: 'the SVG file of an image is served as text/plain',
    rule: 'served as image/svg+xml',
    wrap: (h) => (req) => {
      const res = h(req);
      return is(req, 'GET', ROUTES.imageFile) && res.status === 200 ? withHeaders(res, (hd) => (hd['content-type'] = 'text/plain; charset=utf-8')) : res;
    },
  },
  {
    id: 'four-voices',
    description: 'the voices list leaves one of the five out',
    rule: 'lists the five voices',
    wrap: (h) => editJson(h, (req, res) => is(req, 'GET', ROUTES.voices) && res.status === 200, (json) => ({ data: json.data.slice(0, 4) })),
  },
  {
    id: 'audio-charges',
    description: 'a listen version takes a token from the balance',
    rule: 'at no token cost',
    wrap: (h, sim) => (req) => {
      const res = h(req);
      const account = accountOf(sim, req);
      if (is(req, 'POST', ROUTES.createAudio) && res.status === 201 && account) account.balance -= 1;
      return res;
    },
  },
  {
    id: 'wav-wrong-data-size',
    description: 'the WAV data chunk claims 1000 bytes more than the file holds',
    rule: "the data chunk's size is what follows its header",
    wrap: (h) => (req) => {
      const res = h(req);
      if (!is(req, 'GET', ROUTES.audioFile) || res.status !== 200 || typeof res.body === 'string') return res;
      const wav = new Uint8Array(res.body);
      const view = new DataView(wav.buffer, wav.byteOffset, wav.byteLength);
      view.setUint32(40, view.getUint32(40, true) + 1000, true); // the canonical header's data size
      return { ...res, body: wav };
    },
  },
  {
    id: 'chat-reply-not-stored',
    description: 'the assistant\'s replies are missing from the conversation',
    rule: 'its history grows by two',
    wrap: (h) =>
      editJson(h, (req, res) => is(req, 'GET', ROUTES.chat) && res.status === 200, (json) => {
        const messages = json.messages.filter((m: { role: string }) => m.role === 'user');
        return { ...json, messages, messageCount: messages.length };
      }),
  },
  {
    id: 'topics-ignore-count',
    description: 'topic suggestions answer one idea more than the count asked',
    rule: 'the number of ideas for count 3',
    wrap: (h) => editJson(h, (req, res) => is(req, 'POST', ROUTES.topics) && res.status === 200, (json) => ({ data: [...json.data, json.data.at(-1)] })),
  },
  {
    id: 'keywords-worst-first',
    description: 'keywords come worst first',
    rule: 'scores, best first',
    wrap: (h) => editJson(h, (req, res) => is(req, 'POST', ROUTES.keywords) && res.status === 200, (json) => ({ ...json, data: [...json.data].reverse() })),
  },
  {
    id: 'polish-is-verbatim',
    description: 'a polish quote answers the text as sent',
    rule: 'copy-edits polish text',
    wrap: (h) =>
      editJson(h, (req, res) => is(req, 'POST', ROUTES.quotes) && res.status === 200 && bodyOf(req).mode === 'polish', (json, req) => ({
        data: json.data.map((q: object) => ({ ...q, text: bodyOf(req).text })),
      })),
  },
];
