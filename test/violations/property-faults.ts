import type { EngineRequest } from '../../src/engine/types.js';
import { jsonBody as bodyOf, withBody } from './request-tamper.js';
import { editJson, is, jsonOf, pathOf, withHeaders, withJson } from './tamper.js';
import type { Violation } from './violation.js';

/** A violation with the checks that must catch it (id prefixes): run alone, not inside a whole suite. */
export interface FocusedViolation extends Violation {
  checks: string[];
}

const TARGETS = /^\/api\/v1\/targets$/;
const TARGET = /^\/api\/v1\/targets\/[^/]+$/;
const queryOf = (request: EngineRequest) => new URLSearchParams(request.url.split('?')[1] ?? '');
const refused = (field: string) => ({ status: 400, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ error: `${field} is too long`, code: 'VALIDATION_ERROR', details: { fields: [{ path: field, message: 'too long' }] } }), log: { correlationId: 'corr_0' } });

/** Faults a framework or a hurried implementation makes in the request contract, each caught by the properties. */
export const PROPERTY_FAULTS: FocusedViolation[] = [
  {
    id: 'name-length-in-utf16-units',
    description: 'a target name is measured in UTF-16 units (JavaScript .length): 120 characters outside the BMP are refused',
    rule: 'at the edges of validity',
    checks: ['properties.round-trip.createTarget'],
    wrap: (h) => (request) => {
      const body = is(request, 'POST', TARGETS) ? bodyOf(request) : undefined;
      return typeof body?.name === 'string' && body.name.length > 120 ? refused('body.name') : h(request);
    },
  },
  {
    id: 'text-normalized-to-nfc',
    description: 'a target\'s description is stored NFC-normalized: a decomposed accent comes back composed',
    rule: 'reads back another value',
    checks: ['properties.round-trip.createTarget'],
    wrap: (h) => editJson(h, (req, res) => is(req, 'GET', TARGET) && res.status === 200, (json) => void (json.description = String(json.description).normalize('NFC'))),
  },
  {
    id: 'library-type-forgotten',
    description: 'a library item of type brand_asset is stored as a glossary term',
    rule: 'answered another value than sent',
    checks: ['properties.round-trip.createLibraryItem'],
    wrap: (h) => editJson(h, (req, res) => is(req, 'POST', /\/library$/) && res.status === 201, (json) => void (json.type === 'brand_asset' && (json.type = 'glossary_term'))),
  },
  {
    id: 'slug-max-length-off-by-one',
    description: 'a slug one character past maxLength is cut to 64 and accepted',
    rule: 'slug: maxLength 64 broken',
    checks: ['properties.refusals.createTarget'],
    wrap: (h) => (request) => {
      const body = is(request, 'POST', TARGETS) ? bodyOf(request) : undefined;
      return typeof body?.slug === 'string' && body.slug.length === 65 ? h(withBody(request, { ...body, slug: body.slug.slice(0, 64) })) : h(request);
    },
  },
  {
    id: 'unknown-fields-stripped',
    description: 'an extra field on a closed body is dropped silently (a lenient parser\'s default)',
    rule: 'additionalProperties false broken',
    checks: ['properties.refusals.updateLibraryItem'],
    wrap: (h) => (request) => {
      const body = request.method === 'PATCH' ? bodyOf(request) : undefined;
      if (!body || !('unexpectedField' in body)) return h(request);
      const { unexpectedField: _, ...rest } = body;
      return h(withBody(request, Object.keys(rest).length ? rest : { name: 'Stripped' }));
    },
  },
  {
    id: 'validation-path-unnamed',
    description: 'a refused API key names no field (every problem at path "body")',
    rule: 'details.fields name',
    checks: ['properties.refusals.createApiKey'],
    wrap: (h) => editJson(h, (req, res) => is(req, 'POST', /^\/api\/v1\/keys$/) && res.status === 400, (json) => void (json.details.fields = json.details.fields.map((f: { message: string }) => ({ path: 'body', message: f.message })))),
  },
  {
    id: 'own-slug-is-taken',
    description: 'a PATCH resending the target\'s own slug is 409: the uniqueness test forgets to leave the target itself out',
    rule: 'a PATCH that resends fields unchanged',
    checks: ['properties.unchanged.updateTarget'],
    wrap: (h) => (request) => {
      const body = request.method === 'PATCH' && TARGET.test(pathOf(request)) ? bodyOf(request) : undefined;
      if (typeof body?.slug !== 'string') return h(request);
      return withJson(h(withBody(request, { name: 'Unchanged' })), { error: 'The slug is taken.', code: 'CONFLICT', details: { field: 'slug' } }, 409);
    },
  },
  {
    id: 'keywords-default-five',
    description: 'keyword extraction without max answers 5, not the stated default 10',
    rule: 'keywords max 10',
    checks: ['properties.default.extractKeywords'],
    wrap: (h) => editJson(h, (req, res) => is(req, 'POST', /\/suggestions\/keywords$/) && res.status === 200 && bodyOf(req)?.max === undefined, (json) => void (json.data = json.data.slice(0, 5))),
  },
  {
    id: 'chat-title-default-untitled',
    description: 'a chat made without a title is titled "Untitled chat"',
    rule: 'the title of a chat made without one',
    checks: ['properties.default.createChat'],
    wrap: (h) => editJson(h, (req, res) => is(req, 'POST', /^\/api\/v1\/chats$/) && res.status === 201 && bodyOf(req)?.title === undefined, (json) => void (json.title = 'Untitled chat')),
  },
  {
    id: 'default-page-of-ten',
    description: 'a list without limit answers pages of 10 (a framework\'s default), not 20',
    rule: 'a page of its default size (20)',
    checks: ['properties.default-limit.listTargets'],
    wrap: (h) => (request) => (is(request, 'GET', TARGETS) && !queryOf(request).has('limit') ? h({ ...request, url: `${request.url}${request.url.includes('?') ? '&' : '?'}limit=10` }) : h(request)),
  },
  {
    id: 'full-last-page-has-cursor',
    description: 'a full last page still carries a nextCursor (to an empty page)',
    rule: 'the last page says it is the last',
    checks: ['properties.last-page.listTargets'],
    wrap: (h) => editJson(h, (req, res) => is(req, 'GET', TARGETS) && res.status === 200 && queryOf(req).has('limit'), (json, req) => {
      if (json.nextCursor === null && json.data.length === Number(queryOf(req).get('limit'))) json.nextCursor = 'c1.zz';
    }),
  },
  {
    id: 'offset-cursors',
    description: 'cursors are offsets: an item added at the front between two pages shows an item twice',
    rule: 'cursors are stable',
    checks: ['properties.stable-pages'],
    wrap: (h) => (request) => {
      if (!is(request, 'GET', TARGETS)) return h(request);
      const query = queryOf(request);
      const limit = Number(query.get('limit') ?? 20);
      const offset = Math.max(0, parseInt(/^c1\.([0-9a-z]+)$/.exec(query.get('cursor') ?? '')?.[1] ?? '1', 36) - 1);
      const whole = h({ ...request, url: '/api/v1/targets?limit=100' });
      const data = jsonOf(whole).data as unknown[];
      return withJson(whole, { data: data.slice(offset, offset + limit), nextCursor: offset + limit < data.length ? `c1.${(offset + limit + 1).toString(36)}` : null });
    },
  },
  {
    id: 'malformed-escape-is-500',
    description: 'a malformed percent-escape in the path throws (decodeURIComponent) and answers 500',
    rule: 'never a 5xx',
    checks: ['properties.malformed-escapes'],
    wrap: (h) => (request) => (/%(?![0-9A-Fa-f]{2})|%E0%A4%A(?![0-9A-Fa-f])/.test(pathOf(request)) ? { status: 500, headers: { 'content-type': 'text/plain' }, body: 'URIError: URI malformed', log: { correlationId: 'corr_0' } } : h(request)),
  },
  {
    id: 'json-with-charset-is-415',
    description: 'a JSON body sent as application/json; charset=utf-8 is refused 415 (an exact media-type comparison)',
    rule: 'RFC 9110 §8.3.1',
    checks: ['properties.media-type-parameters'],
    wrap: (h) => (request) =>
      request.method === 'POST' && (request.headers['content-type'] ?? '') !== 'application/json' && TARGETS.test(pathOf(request))
        ? withJson(h({ ...request, url: '/api/v1/tokens/balance', method: 'GET', body: undefined }), { error: 'Send application/json.', code: 'UNSUPPORTED_MEDIA_TYPE', details: {} }, 415)
        : h(request),
  },
  {
    id: 'rest-401-without-challenge',
    description: 'a REST 401 carries no WWW-Authenticate (an auth middleware that answers JSON only)',
    rule: 'required header www-authenticate is missing',
    checks: ['auth.no-key.listBuilds'],
    wrap: (h) => (request) => {
      const response = h(request);
      return response.status === 401 && pathOf(request).startsWith('/api/v1/builds') ? withHeaders(response, (headers) => void delete headers['www-authenticate']) : response;
    },
  },
  {
    id: 'brand-kit-seo-forgotten',
    description: 'a brand kit keeps its SEO keywords but forgets the secondary ones',
    rule: 'a brand kit sent with its SEO preferences',
    documented: true,
    checks: ['capabilities.brand-kit'],
    wrap: (h) => editJson(h, (req, res) => is(req, 'GET', TARGET) && res.status === 200, (json) => void (json.brandKit?.seo && (json.brandKit.seo.secondaryKeywords = []))),
  },
  {
    id: 'press-release-options-refused',
    description: 'a build refuses the press-release options openapi.yaml gives it (a schema of its own without them): at strict, where that shape is the contract, not a skip',
    rule: 'the server refuses the press-release options',
    checks: ['capabilities.press-release'],
    // The server's own 400, as a schema without the options answers them: the options sent as a value it refuses.
    wrap: (h) => (request) => {
      const body = is(request, 'POST', /^\/api\/v1\/builds$/) ? bodyOf(request) : undefined;
      return body?.pressRelease !== undefined ? h(withBody(request, { ...body, pressRelease: 'not an object' })) : h(request);
    },
  },
  {
    id: 'verbatim-quote-polished',
    description: 'a press release copy-edits its verbatim quote too',
    rule: 'the verbatim quote\'s text',
    documented: true,
    checks: ['capabilities.press-release'],
    wrap: (h) => editJson(h, (req, res) => is(req, 'GET', /^\/api\/v1\/deliverables\/[^/]+$/) && res.status === 200, (json) => {
      const quote = json.kindData?.quotes?.[0];
      if (quote?.mode === 'verbatim') quote.text = `${quote.text.replace(/\.$/, '')}, truly.`;
    }),
  },
];

