import type { Check } from '../check.js';
import { expectEqual, expectThat } from '../../shared/outcomes.js';
import { expectError, expectStatus, expectSuccess } from './expect.js';

const FULL = 'Deliverables: the full deliverable carries its sources and its claim verification';
const FORMATS = [
  { format: 'md', type: 'text/markdown', field: 'markdown', name: 'Markdown' },
  { format: 'html', type: 'text/html', field: 'html', name: 'HTML' },
] as const;

export function deliverableChecks(): Check[] {
  const needsDeliverable = { groups: ['spend' as const, 'wait' as const], requests: 65 };
  return [
    {
      ...needsDeliverable,
      id: 'deliverables.full',
      title: FULL,
      level: 'documented',
      covers: ['getDeliverable'],
      run: async (s) => {
        const { id, reply } = await s.fixtures.deliverable();
        const d = reply.json;
        expectEqual(d.id, id, `${FULL}: its id`);
        expectThat(Array.isArray(d.sources) && d.sources.length > 0, `${FULL}: sources is a non-empty list: got ${JSON.stringify(d.sources)?.slice(0, 200)}`);
        expectThat(Array.isArray(d.claims), `${FULL}: claims (the claim ledger) is a list: got ${JSON.stringify(d.claims)?.slice(0, 200)}`);
        if (!s.strict) return;
        const sourceIds = new Set(d.sources.map((src: { id: string }) => src.id));
        const dangling = d.claims.flatMap((c: { sourceIds: string[] }) => c.sourceIds).filter((sid: string) => !sourceIds.has(sid));
        expectEqual(dangling, [], 'openapi.yaml: every claim cites sources of the deliverable');
        const counts = { supported: 0, weak: 0, unsupported: 0 } as Record<string, number>;
        for (const c of d.claims as Array<{ verdict: string }>) counts[c.verdict] = (counts[c.verdict] ?? 0) + 1;
        expectEqual([d.verification.supported, d.verification.weak, d.verification.unsupported], [counts.supported, counts.weak, counts.unsupported], 'openapi.yaml: verification counts the claims by verdict');
      },
    },
    ...FORMATS.map(
      ({ format, type, field, name }): Check => ({
        ...needsDeliverable,
        id: `deliverables.download-${format}`,
        title: `Endpoints: GET /api/v1/deliverables/:id/download?format=${format} answers the ${name} file as ${type}`,
        level: 'documented',
        covers: ['downloadDeliverable'],
        run: async (s) => {
          const { id, reply: full } = await s.fixtures.deliverable();
          const reply = await s.client.op('downloadDeliverable', { deliverableId: id }, { query: { format } });
          expectSuccess(reply, `Endpoints: the ${name} download`);
          const contentType = (reply.headers['content-type'] ?? '').split(';')[0]?.trim();
          expectEqual(contentType, type, `Endpoints: the content type of the ${name} download`);
          expectThat(reply.text.length > 0, `Endpoints: the ${name} download has a body`);
          if (!s.strict) return;
          expectEqual(reply.text, full.json[field], `openapi.yaml: the ${name} file is the deliverable's ${field}`);
          expectEqual(reply.headers['content-disposition'], `attachment; filename="${full.json.slug}.${format}"`, 'openapi.yaml: Content-Disposition names <slug>.<format>');
        },
      }),
    ),
    {
      ...needsDeliverable,
      id: 'deliverables.bad-format',
      title: 'Endpoints, Errors: a download format other than md or html is refused (openapi.yaml, strict: 400 VALIDATION_ERROR)',
      level: 'documented',
      covers: ['downloadDeliverable'],
      run: async (s) => {
        const { id } = await s.fixtures.deliverable();
        const reply = await s.client.op('downloadDeliverable', { deliverableId: id }, { query: { format: 'pdf' } });
        if (s.strict) expectError(reply, 400, 'VALIDATION_ERROR', 'openapi.yaml: format=pdf gets 400 VALIDATION_ERROR');
        else expectError(reply, '4xx', undefined, 'Endpoints: format takes md or html only');
      },
    },
    {
      id: 'errors.malformed-id',
      title: 'openapi.yaml: an id that is not a UUID gets 400 VALIDATION_ERROR',
      level: 'strict',
      covers: ['getBuild', 'getDeliverable'],
      requests: 2,
      run: async (s) => {
        for (const [op, param] of [['getBuild', 'buildId'], ['getDeliverable', 'deliverableId']] as const) {
          const reply = await s.client.op(op, { [param]: 'not-a-uuid' });
          expectError(reply, 400, 'VALIDATION_ERROR', `openapi.yaml: ${op} with ${param}=not-a-uuid`);
        }
      },
    },
    {
      id: 'errors.unroutable',
      title: 'openapi.yaml: a path the API does not have gets 404 NOT_FOUND; a method a path does not have gets 405 METHOD_NOT_ALLOWED with Allow',
      level: 'strict',
      requests: 2,
      run: async (s) => {
        const missing = await s.client.call('GET', '/api/v1/no-such-resource');
        expectError(missing, 404, 'NOT_FOUND', 'openapi.yaml: an unknown path');
        const path = '/api/v1/tokens/balance';
        const taken = new Set(s.operations.filter((o) => o.path === path).map((o) => o.method));
        const method = ['PUT', 'PATCH', 'DELETE', 'POST'].find((m) => !taken.has(m)) as string;
        const wrong = await s.client.call(method, path);
        expectError(wrong, 405, 'METHOD_NOT_ALLOWED', `openapi.yaml: ${method} ${path}`);
        expectThat(/\bGET\b/.test(wrong.headers.allow ?? ''), `openapi.yaml: Allow lists the path's methods: got ${JSON.stringify(wrong.headers.allow ?? null)}`);
      },
    },
    {
      id: 'errors.build-validation',
      title: 'Errors: a build body of the wrong shape gets VALIDATION_ERROR (openapi.yaml, strict: 400) and charges nothing',
      level: 'documented',
      covers: ['createBuild'],
      requests: 4,
      run: async (s) => {
        const target = await s.fixtures.target();
        const before = (await s.client.op('getTokenBalance')).json;
        // Types the spec states (kind and objective are strings), so the body is wrong at any level.
        const reply = await s.client.op('createBuild', {}, { body: { targetId: target.id, buildType: 'single', kind: 42, objective: ['not', 'a', 'string'] } });
        expectError(reply, s.strict ? 400 : '4xx', 'VALIDATION_ERROR', 'Errors: a build whose kind and objective are not strings');
        const after = await s.client.op('getTokenBalance');
        expectStatus(after, 200, 'Endpoints: the balance');
        expectEqual(after.json, before, 'Errors: a refused build charges nothing (balance object unchanged)');
      },
    },
  ];
}
