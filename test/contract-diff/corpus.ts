/**
 * Before/after pairs of a small contract, each with the verdict a client of the old version
 * would give: does the new one break me? Every case changes one thing.
 */
type Json = Record<string, any>;

export interface DiffCase {
  name: string;
  verdict: 'breaking' | 'compatible';
  /** The rule the diff must name (for a compatible case: the rule of the change it reports). */
  rule: string;
  change: (doc: Json) => void;
}

export function baseContract(): Json {
  return {
    openapi: '3.1.0',
    info: { title: 'corpus', version: '1' },
    paths: {
      '/items': {
        get: {
          operationId: 'listItems',
          'x-required-scope': 'svc:read',
          'x-rate-limit-class': 'default',
          parameters: [
            { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100 } },
            { name: 'status', in: 'query', schema: { type: 'string', enum: ['open', 'closed'] } },
          ],
          responses: {
            '200': {
              description: 'a page',
              headers: { 'X-RateLimit-Limit': { required: true, schema: { type: 'integer' } } },
              content: { 'application/json': { schema: { $ref: '#/components/schemas/ItemPage' } } },
            },
            '401': { description: 'no key', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
          },
        },
        post: {
          operationId: 'createItem',
          'x-required-scope': 'svc:write',
          'x-rate-limit-class': 'default',
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/ItemCreate' } } } },
          responses: { '201': { description: 'created', content: { 'application/json': { schema: { $ref: '#/components/schemas/Item' } } } } },
        },
      },
      '/items/{itemId}': {
        get: {
          operationId: 'getItem',
          'x-required-scope': 'svc:read',
          parameters: [{ name: 'itemId', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
          responses: { '200': { description: 'one', content: { 'application/json': { schema: { $ref: '#/components/schemas/Item' } } } } },
        },
      },
      '/shared/{token}': {
        get: {
          operationId: 'viewShared',
          security: [],
          parameters: [{ name: 'token', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { '200': { description: 'shared', content: { 'text/html': { schema: { type: 'string' } } } } },
        },
      },
    },
    components: {
      schemas: {
        ItemCreate: {
          type: 'object',
          additionalProperties: false,
          required: ['name'],
          properties: {
            name: { type: 'string', minLength: 1, maxLength: 200 },
            kind: { type: 'string', enum: ['blog', 'news'] },
            tags: { type: 'array', maxItems: 10, items: { type: 'string' } },
            contact: { type: 'string', format: 'email' },
            brandKit: { type: 'object', properties: { voice: { type: 'string' } } },
          },
        },
        Item: {
          type: 'object',
          required: ['id', 'name', 'status', 'createdAt'],
          properties: {
            id: { type: 'string', format: 'uuid' },
            name: { type: 'string' },
            status: { type: 'string', enum: ['open', 'closed'] },
            createdAt: { type: 'string', format: 'date-time' },
            note: { type: ['string', 'null'] },
            data: {
              oneOf: [
                { type: 'object', required: ['kind'], properties: { kind: { const: 'blog' }, words: { type: 'integer' } } },
                { type: 'object', required: ['kind'], properties: { kind: { const: 'news' }, dateline: { type: 'string' } } },
              ],
            },
          },
        },
        ItemPage: {
          type: 'object',
          required: ['data', 'nextCursor'],
          properties: { data: { type: 'array', items: { $ref: '#/components/schemas/Item' } }, nextCursor: { type: ['string', 'null'] } },
        },
        Error: { type: 'object', required: ['error', 'code', 'details'], properties: { error: { type: 'string' }, code: { type: 'string' }, details: { type: 'object' } } },
      },
    },
  };
}

const schemas = (d: Json) => d.components.schemas;
const list = (d: Json) => d.paths['/items'].get;

export const CASES: DiffCase[] = [
  // Breaking
  { name: 'an operation removed', verdict: 'breaking', rule: 'operation-removed', change: (d) => delete d.paths['/items/{itemId}'] },
  { name: 'a query parameter removed', verdict: 'breaking', rule: 'parameter-removed', change: (d) => list(d).parameters.splice(1, 1) },
  { name: 'an optional parameter made required', verdict: 'breaking', rule: 'parameter-became-required', change: (d) => (list(d).parameters[0].required = true) },
  { name: 'a new required query parameter', verdict: 'breaking', rule: 'new-required-parameter', change: (d) => list(d).parameters.push({ name: 'q', in: 'query', required: true, schema: { type: 'string' } }) },
  { name: 'a parameter maximum lowered', verdict: 'breaking', rule: 'request-maximum-tightened', change: (d) => (list(d).parameters[0].schema.maximum = 50) },
  { name: 'a request enum value removed', verdict: 'breaking', rule: 'request-enum-value-removed', change: (d) => (list(d).parameters[1].schema.enum = ['open']) },
  { name: 'a path parameter narrowed to a format', verdict: 'breaking', rule: 'request-format-added', change: (d) => (d.paths['/shared/{token}'].get.parameters[0].schema.format = 'uuid') },
  { name: 'a new required request field', verdict: 'breaking', rule: 'new-required-request-property', change: (d) => { schemas(d).ItemCreate.properties.slug = { type: 'string' }; schemas(d).ItemCreate.required.push('slug'); } },
  { name: 'an optional request field made required', verdict: 'breaking', rule: 'request-property-became-required', change: (d) => schemas(d).ItemCreate.required.push('kind') },
  { name: 'a request field removed from a closed object', verdict: 'breaking', rule: 'request-property-removed', change: (d) => delete schemas(d).ItemCreate.properties.tags },
  { name: 'a request string shortened', verdict: 'breaking', rule: 'request-maxLength-tightened', change: (d) => (schemas(d).ItemCreate.properties.name.maxLength = 80) },
  { name: 'a request type narrowed', verdict: 'breaking', rule: 'request-type-narrowed', change: (d) => (schemas(d).ItemCreate.properties.name.type = 'integer') },
  { name: 'a request format changed', verdict: 'breaking', rule: 'request-format-changed', change: (d) => (schemas(d).ItemCreate.properties.contact.format = 'idn-email') },
  { name: 'a request pattern added', verdict: 'breaking', rule: 'request-pattern-changed', change: (d) => (schemas(d).ItemCreate.properties.name.pattern = '^[a-z]+$') },
  { name: 'a request array made shorter', verdict: 'breaking', rule: 'request-maxItems-tightened', change: (d) => (schemas(d).ItemCreate.properties.tags.maxItems = 3) },
  { name: 'a request body made required', verdict: 'breaking', rule: 'request-body-required', change: (d) => (d.paths['/items'].get.requestBody = { required: true, content: { 'application/json': { schema: { type: 'object' } } } }) },
  { name: 'a request media type removed', verdict: 'breaking', rule: 'request-media-type-removed', change: (d) => (d.paths['/items'].post.requestBody.content = { 'application/xml': { schema: { type: 'object' } } }) },
  { name: 'a response field removed', verdict: 'breaking', rule: 'response-property-removed', change: (d) => { delete schemas(d).Item.properties.createdAt; schemas(d).Item.required.pop(); } },
  { name: 'a response field made optional', verdict: 'breaking', rule: 'response-property-became-optional', change: (d) => (schemas(d).Item.required = ['id', 'name', 'status']) },
  { name: 'a response field made nullable', verdict: 'breaking', rule: 'response-type-widened', change: (d) => (schemas(d).Item.properties.name.type = ['string', 'null']) },
  { name: 'a response type changed', verdict: 'breaking', rule: 'response-type-widened', change: (d) => (schemas(d).Item.properties.name.type = 'integer') },
  { name: 'a response format changed', verdict: 'breaking', rule: 'response-format-changed', change: (d) => (schemas(d).Item.properties.createdAt.format = 'date') },
  { name: 'a nested response field removed through $ref', verdict: 'breaking', rule: 'response-property-removed', change: (d) => { delete schemas(d).Item.properties.status; schemas(d).Item.required = ['id', 'name', 'createdAt']; } },
  { name: 'a union variant field removed', verdict: 'breaking', rule: 'response-property-removed', change: (d) => delete schemas(d).Item.properties.data.oneOf[1].properties.dateline },
  { name: 'a success status removed', verdict: 'breaking', rule: 'response-status-removed', change: (d) => { d.paths['/items'].post.responses['200'] = d.paths['/items'].post.responses['201']; delete d.paths['/items'].post.responses['201']; } },
  { name: 'a response header removed', verdict: 'breaking', rule: 'response-header-removed', change: (d) => (list(d).responses['200'].headers = {}) },
  { name: 'a response header made optional', verdict: 'breaking', rule: 'response-header-became-optional', change: (d) => (list(d).responses['200'].headers['X-RateLimit-Limit'].required = false) },
  { name: 'a response media type removed', verdict: 'breaking', rule: 'response-media-type-removed', change: (d) => (d.paths['/shared/{token}'].get.responses['200'].content = { 'text/markdown': { schema: { type: 'string' } } }) },
  { name: 'a tightened rate limit', verdict: 'breaking', rule: 'rate-limit-tightened', change: (d) => (list(d)['x-rate-limit-class'] = 'generation') },
  { name: 'a wider scope required', verdict: 'breaking', rule: 'scope-changed', change: (d) => (list(d)['x-required-scope'] = 'svc:write') },
  { name: 'a public operation now needs a key', verdict: 'breaking', rule: 'authentication-required', change: (d) => delete d.paths['/shared/{token}'].get.security },
  { name: 'an open request object closed to unknown fields', verdict: 'breaking', rule: 'request-additional-properties-refused', change: (d) => (schemas(d).ItemCreate.properties.brandKit.additionalProperties = false) },
  // Compatible (or a warning only)
  { name: 'an operation added', verdict: 'compatible', rule: 'operation-added', change: (d) => (d.paths['/items/{itemId}'].delete = { operationId: 'deleteItem', responses: { '204': { description: 'gone' } } }) },
  { name: 'an optional parameter added', verdict: 'compatible', rule: 'parameter-added', change: (d) => list(d).parameters.push({ name: 'q', in: 'query', schema: { type: 'string' } }) },
  { name: 'a path parameter renamed', verdict: 'compatible', rule: '', change: (d) => { d.paths['/items/{id}'] = d.paths['/items/{itemId}']; delete d.paths['/items/{itemId}']; d.paths['/items/{id}'].get.parameters[0].name = 'id'; } },
  { name: 'a request enum value added', verdict: 'compatible', rule: 'request-enum-value-added', change: (d) => schemas(d).ItemCreate.properties.kind.enum.push('email') },
  { name: 'a request maximum raised', verdict: 'compatible', rule: 'request-maximum-loosened', change: (d) => (list(d).parameters[0].schema.maximum = 500) },
  { name: 'an optional request field added', verdict: 'compatible', rule: 'request-property-added', change: (d) => (schemas(d).ItemCreate.properties.slug = { type: 'string' }) },
  { name: 'a required request field made optional', verdict: 'compatible', rule: '', change: (d) => (schemas(d).ItemCreate.required = []) },
  { name: 'a response field added', verdict: 'compatible', rule: 'response-property-added', change: (d) => (schemas(d).Item.properties.slug = { type: 'string' }) },
  { name: 'a response field made required', verdict: 'compatible', rule: '', change: (d) => schemas(d).Item.required.push('note') },
  { name: 'a response enum value added (a warning)', verdict: 'compatible', rule: 'response-enum-value-added', change: (d) => schemas(d).Item.properties.status.enum.push('archived') },
  { name: 'a response union variant added (a warning)', verdict: 'compatible', rule: 'response-variant-added', change: (d) => schemas(d).Item.properties.data.oneOf.push({ type: 'object', required: ['kind'], properties: { kind: { const: 'email' } } }) },
  { name: 'an error status added', verdict: 'compatible', rule: 'response-status-added', change: (d) => (list(d).responses['429'] = { description: 'slow down' }) },
  { name: 'a loosened rate limit', verdict: 'compatible', rule: 'rate-limit-loosened', change: (d) => (d.paths['/items'].post['x-rate-limit-class'] = 'default', d.paths['/items'].post['x-rate-limit'] = 120) },
  { name: 'a schema inlined instead of referenced', verdict: 'compatible', rule: '', change: (d) => (d.paths['/items/{itemId}'].get.responses['200'].content['application/json'].schema = structuredClone(schemas(d).Item)) },
  { name: 'a schema split into allOf', verdict: 'compatible', rule: '', change: (d) => { const { id, ...rest } = schemas(d).Item.properties; schemas(d).Base = { type: 'object', required: ['id'], properties: { id } }; schemas(d).Item = { allOf: [{ $ref: '#/components/schemas/Base' }, { type: 'object', required: ['name', 'status', 'createdAt'], properties: rest }] }; } },
  { name: 'a 3.0 nullable spelled as a 3.1 type list', verdict: 'compatible', rule: '', change: (d) => (schemas(d).Item.properties.note = { type: 'string', nullable: true }) },
];
