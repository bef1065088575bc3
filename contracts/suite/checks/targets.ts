import type { Check } from '../check.js';
import { createTarget, newestIds } from '../fixtures.js';
import { expectEqual, expectThat } from '../../shared/outcomes.js';
import { expectError, expectStatus } from './expect.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function targetChecks(): Check[] {
  return [
    {
      id: 'targets.create',
      title: 'Resources, Target: creation answers the target with its id (a UUID), name and slug',
      level: 'documented',
      covers: ['createTarget'],
      requests: 1,
      run: async (s) => {
        const target = await s.fixtures.target();
        const body = target.reply.json;
        expectThat(UUID.test(String(body.id)), `Resources, Target: id is a UUID: got ${JSON.stringify(body.id)}`);
        expectEqual(body.name, target.name, 'Resources, Target: the name sent');
        expectEqual(body.slug, target.slug, 'Resources, Target: the slug sent');
        if (s.strict) {
          expectStatus(target.reply, 201, 'openapi.yaml: a created target answers 201');
          expectEqual(target.reply.headers.location, `/api/v1/targets/${body.id}`, 'openapi.yaml: Location of the created target');
          expectEqual(body.brandKit?.voice, 'expert', 'Resources, Target: the brand kit keeps its voice');
          expectEqual(body.brandKit?.tone, 'warm', 'Resources, Target: the brand kit keeps its tone');
        }
      },
    },
    {
      id: 'targets.write-only',
      title: 'Authentication 2: a key with only svc:write creates a target',
      level: 'documented',
      roles: ['writeOnly'],
      covers: ['createTarget'],
      requests: 1,
      run: async (s) => void (await createTarget(s, 'write-only', 'writeOnly')),
    },
    {
      id: 'targets.read-back',
      title: 'openapi.yaml: a created target is fetched by its id and listed first, newest first',
      level: 'strict',
      covers: ['getTarget', 'listTargets'],
      requests: 3,
      run: async (s) => {
        const target = await createTarget(s, 'read-back');
        const fetched = await s.client.op('getTarget', { targetId: target.id });
        expectStatus(fetched, 200, 'openapi.yaml: GET /api/v1/targets/{targetId} answers the target');
        expectEqual(fetched.json, target.reply.json, 'openapi.yaml: the fetched target equals the created one');
        const listed = await newestIds(s, 'listTargets', 5);
        expectEqual(listed[0]?.id, target.id, 'openapi.yaml: the newest target is listed first');
      },
    },
    {
      id: 'targets.slug-conflict',
      title: 'openapi.yaml: a slug already used by the account gets 409 CONFLICT and creates nothing',
      level: 'strict',
      covers: ['createTarget'],
      requests: 4,
      run: async (s) => {
        const target = await s.fixtures.target();
        const before = (await newestIds(s, 'listTargets', 100)).length;
        const again = await s.client.op('createTarget', {}, { body: { name: s.newTargetName('duplicate').name, slug: target.slug } });
        expectError(again, 409, 'CONFLICT', 'openapi.yaml: a slug already used gets 409 CONFLICT');
        expectEqual((await newestIds(s, 'listTargets', 100)).length, before, 'openapi.yaml: a refused request writes nothing (targets listed)');
      },
    },
    {
      id: 'targets.validation',
      title: 'Errors: a target body of the wrong shape gets VALIDATION_ERROR (openapi.yaml, strict: 400 with details.fields) and creates nothing',
      level: 'documented',
      covers: ['createTarget'],
      requests: 3,
      run: async (s) => {
        const before = s.strict ? (await newestIds(s, 'listTargets', 100)).length : 0;
        const reply = await s.client.op('createTarget', {}, { body: { name: 42, slug: 'Not A Slug!', brandKit: 'warm' } });
        expectError(reply, s.strict ? 400 : '4xx', 'VALIDATION_ERROR', 'Errors: a body that does not match the documented shape gets VALIDATION_ERROR');
        if (s.strict) {
          const paths = (reply.json.details?.fields ?? []).map((f: { path: string }) => f.path);
          expectThat(paths.includes('body.name') && paths.includes('body.slug'), `openapi.yaml: details.fields names each problem (body.name, body.slug): got ${JSON.stringify(paths)}`);
          expectEqual((await newestIds(s, 'listTargets', 100)).length, before, 'openapi.yaml: a refused request writes nothing (targets listed)');
        }
      },
    },
    {
      id: 'targets.transport-errors',
      title: 'openapi.yaml: a body that is not JSON gets 400 VALIDATION_ERROR, one not sent as JSON 415, one over 1 MiB 413',
      level: 'strict',
      covers: ['createTarget'],
      requests: 3,
      run: async (s) => {
        const broken = await s.client.op('createTarget', {}, { rawBody: '{"name":', contentType: 'application/json' });
        expectError(broken, 400, 'VALIDATION_ERROR', 'openapi.yaml: a body that is not well-formed JSON gets 400 VALIDATION_ERROR');
        const text = await s.client.op('createTarget', {}, { rawBody: `name=${s.config.runId}`, contentType: 'text/plain' });
        expectError(text, 415, 'UNSUPPORTED_MEDIA_TYPE', 'openapi.yaml: a body not sent as application/json gets 415 UNSUPPORTED_MEDIA_TYPE');
        const huge = JSON.stringify({ ...s.newTargetName('huge'), description: 'x'.repeat(1024 * 1024) });
        const tooLarge = await s.client.op('createTarget', {}, { rawBody: huge, contentType: 'application/json' });
        expectError(tooLarge, 413, 'PAYLOAD_TOO_LARGE', 'openapi.yaml: a body over 1 MiB gets 413 PAYLOAD_TOO_LARGE');
      },
    },
  ];
}
