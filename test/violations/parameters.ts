import { is, withHeaders, withJson, type Handle } from './tamper.js';
import { defaultField, dropField, dropQuery, forceField } from './request-tamper.js';
import type { Violation } from './violation.js';

const LISTS = /^\/api\/v1\/(tokens\/transactions|targets|builds|images|audio|chats|keys|targets\/[^/]+\/library|deliverables\/[^/]+\/shares)$/;
const DOWNLOAD = /^\/api\/v1\/deliverables\/[^/]+\/download$/;

function ignoredFilter(op: string, path: RegExp, param: string): Violation {
  return {
    id: `filter-ignored-${op}-${param}`,
    description: `${op} ignores its ${param} filter`,
    rule: `the ${param} filter of ${op} answers exactly the items`,
    wrap: (h) => dropQuery(h, 'GET', path, param),
  };
}

function optionalField(id: string, method: string, path: RegExp, field: string, value: unknown, op: string): Violation {
  return {
    id: `optional-${id}`,
    description: `${op} fills in ${field} when it is left out`,
    rule: `without its required ${field} gets 400 VALIDATION_ERROR`,
    wrap: (h) => defaultField(h, method, path, field, value),
  };
}

/** Rewrites rate-limit headers of every response that has them. */
const rateHeaders = (edit: (hd: Record<string, string>) => void) => (h: Handle) => (req: Parameters<Handle>[0]) => {
  const res = h(req);
  return res.headers['x-ratelimit-limit'] ? withHeaders(res, edit) : res;
};

/** Violations of the list parameters, of the download format, of required fields and of header units and bounds. */
export const PARAMETER_VIOLATIONS: Violation[] = [
  {
    id: 'limit-ignored',
    description: 'lists ignore limit and answer their default page',
    rule: 'limit bounds a page and cursor continues it',
    wrap: (h) => dropQuery(h, 'GET', LISTS, 'limit'),
  },
  {
    id: 'cursor-ignored',
    description: 'lists ignore cursor and answer the first page again',
    rule: 'limit bounds a page and cursor continues it',
    wrap: (h) => dropQuery(h, 'GET', LISTS, 'cursor'),
  },
  {
    id: 'limit-out-of-range-clamped',
    description: 'limit=0 and limit=101 are clamped into range instead of refused',
    rule: 'limit outside 1 to 100, or a cursor the server did not issue, gets 400',
    wrap: (h) => (req) => {
      if (!is(req, 'GET', LISTS)) return h(req);
      return h({ ...req, url: req.url.replace(/([?&])limit=(0|101)\b/, (_, sep: string, v: string) => `${sep}limit=${v === '0' ? 1 : 100}`) });
    },
  },
  ignoredFilter('listBuilds', /^\/api\/v1\/builds$/, 'status'),
  ignoredFilter('listBuilds', /^\/api\/v1\/builds$/, 'targetId'),
  ignoredFilter('listTokenTransactions', /^\/api\/v1\/tokens\/transactions$/, 'type'),
  ignoredFilter('listApiKeys', /^\/api\/v1\/keys$/, 'status'),
  // The whole suite: the target the filter check picks has items of two types only after checks of many areas.
  { ...ignoredFilter('listLibraryItems', /^\/api\/v1\/targets\/[^/]+\/library$/, 'type'), areas: undefined },
  ignoredFilter('listChats', /^\/api\/v1\/chats$/, 'targetId'),
  ignoredFilter('listAudio', /^\/api\/v1\/audio$/, 'deliverableId'),
  {
    id: 'download-md-is-html',
    description: 'format=md is labelled text/markdown but carries the HTML file',
    rule: 'the download is in the chosen format',
    documented: true,
    wrap: (h) => (req) => {
      const res = h(req);
      if (!is(req, 'GET', DOWNLOAD) || res.status !== 200 || !req.url.includes('format=md')) return res;
      const html = h({ ...req, url: req.url.replace('format=md', 'format=html') });
      return { ...res, body: html.body };
    },
  },
  {
    id: 'download-format-defaults',
    description: 'a download without format answers the Markdown file',
    rule: 'the download needs its format',
    documented: true,
    wrap: (h) => (req) => (is(req, 'GET', DOWNLOAD) && !req.url.includes('format=') ? h({ ...req, url: `${req.url}?format=md` }) : h(req)),
  },
  optionalField('target-slug', 'POST', /^\/api\/v1\/targets$/, 'slug', 'generated-slug', 'createTarget'),
  optionalField('build-kind', 'POST', /^\/api\/v1\/builds$/, 'kind', 'blog', 'createBuild'),
  optionalField('library-content', 'POST', /^\/api\/v1\/targets\/[^/]+\/library$/, 'content', 'Filled in.', 'createLibraryItem'),
  optionalField('image-prompt', 'POST', /^\/api\/v1\/images$/, 'prompt', 'An image', 'createImage'),
  optionalField('keywords-text', 'POST', /^\/api\/v1\/suggestions\/keywords$/, 'text', 'coffee', 'extractKeywords'),
  optionalField('quote-mode', 'POST', /^\/api\/v1\/suggestions\/quotes$/, 'mode', 'generate', 'suggestQuotes'),
  optionalField('key-scopes', 'POST', /^\/api\/v1\/keys$/, 'scopes', ['svc:read'], 'createApiKey'),
  {
    id: 'keywords-max-ignored',
    areas: ['generation'],
    description: 'keyword extraction ignores max and answers its default number',
    rule: 'max takes effect',
    wrap: (h) => dropField(h, 'POST', /^\/api\/v1\/suggestions\/keywords$/, 'max'),
  },
  {
    id: 'audio-voice-ignored',
    areas: ['generation'],
    description: 'a listen version is always read in the first voice',
    rule: 'voice takes effect',
    wrap: (h) => forceField(h, 'POST', /^\/api\/v1\/deliverables\/[^/]+\/audio$/, 'voice', 'aria'),
  },
  {
    id: 'validation-details-unnamed',
    description: 'a missing required field is refused without naming it',
    rule: 'the details do not name it',
    wrap: (h) => (req) => {
      const res = h(req);
      if (res.status !== 400 || !is(req, 'POST', /^\/api\/v1\/suggestions\/keywords$/)) return res;
      return withJson(res, { error: 'Invalid request.', code: 'VALIDATION_ERROR', details: { fields: [{ path: 'body', message: 'is invalid' }] } });
    },
  },
  {
    id: 'text-plain-read-as-json',
    description: 'a chat message sent as text/plain is read as JSON anyway',
    rule: 'a body not sent as application/json gets 415 UNSUPPORTED_MEDIA_TYPE',
    wrap: (h) => (req) =>
      is(req, 'POST', /^\/api\/v1\/chats\/[^/]+\/messages$/) && (req.headers['content-type'] ?? '').startsWith('text/plain') ? h({ ...req, headers: { ...req.headers, 'content-type': 'application/json' } }) : h(req),
  },
  {
    id: 'large-body-as-validation-error',
    description: 'a library item over 1 MiB gets 400 VALIDATION_ERROR instead of 413',
    rule: 'a body over 1 MiB gets 413 PAYLOAD_TOO_LARGE',
    wrap: (h) => (req) => {
      const res = h(req);
      return res.status === 413 && is(req, 'POST', /^\/api\/v1\/targets\/[^/]+\/library$/) ? withJson(res, { error: 'Too long.', code: 'VALIDATION_ERROR', details: { fields: [{ path: 'body.content', message: 'is too long' }] } }, 400) : res;
    },
  },
  {
    id: 'malformed-id-as-not-found',
    description: 'an image id that is not a UUID gets 404 NOT_FOUND instead of 400',
    rule: 'a path id that is not a UUID gets 400 VALIDATION_ERROR',
    wrap: (h) => (req) => {
      const res = h(req);
      return res.status === 400 && is(req, 'GET', /^\/api\/v1\/images\/not-a-uuid$/) ? withJson(res, { error: 'No such image.', code: 'NOT_FOUND', details: {} }, 404) : res;
    },
  },
  {
    id: 'reset-in-milliseconds',
    description: 'X-RateLimit-Reset is a Unix time in milliseconds',
    rule: 'X-RateLimit-Reset is a Unix timestamp in seconds',
    documented: true,
    wrap: rateHeaders((hd) => (hd['x-ratelimit-reset'] = String(Number(hd['x-ratelimit-reset']) * 1000))),
  },
  {
    id: 'remaining-above-limit',
    description: 'X-RateLimit-Remaining counts past X-RateLimit-Limit',
    rule: 'X-RateLimit-Remaining lies between 0 and X-RateLimit-Limit',
    documented: true,
    wrap: rateHeaders((hd) => (hd['x-ratelimit-remaining'] = String(Number(hd['x-ratelimit-remaining']) + Number(hd['x-ratelimit-limit'])))),
  },
  {
    id: 'retry-after-in-milliseconds',
    areas: ['rate-limits'],
    description: 'Retry-After of a 429 is given in milliseconds',
    rule: 'Retry-After of a 429 is a whole number of seconds',
    documented: true,
    wrap: (h) => (req) => {
      const res = h(req);
      return res.status === 429 && res.headers['retry-after'] ? withHeaders(res, (hd) => (hd['retry-after'] = String(Number(hd['retry-after']) * 1000))) : res;
    },
  },
];
