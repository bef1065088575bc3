import type { Check, Group } from '../check.js';
import { pathParameters, type OperationInfo } from '../../shared/openapi-model.js';
import { expectEqual } from '../../shared/outcomes.js';
import type { Session } from '../session.js';
import { expectError } from './expect.js';
import { WRITE_BODIES } from './isolation.js';
import { ownedPathValues } from './owned-ids.js';

const BROKEN = 'openapi.yaml: a body that is not well-formed JSON gets 400 VALIDATION_ERROR';
const MEDIA = 'openapi.yaml: a body not sent as application/json gets 415 UNSUPPORTED_MEDIA_TYPE';
const LARGE = 'openapi.yaml: a body over 1 MiB gets 413 PAYLOAD_TOO_LARGE';
const MALFORMED_ID = 'openapi.yaml: a path id that is not a UUID gets 400 VALIDATION_ERROR';

function groupsOf(op: OperationInfo): Group[] | undefined {
  return /\{(deliverableId|shareId|audioId|buildId)\}/.test(op.path) ? ['spend', 'wait'] : undefined;
}

/** A valid body for a write: the only thing wrong with the request is what the check breaks. */
function validBody(s: Session, op: OperationInfo): Record<string, unknown> {
  const body = WRITE_BODIES[op.id]?.(s);
  return body && typeof body === 'object' ? (body as Record<string, unknown>) : { name: `${s.config.runId} transport` };
}

/**
 * Transport errors on every operation, not on one: each write with a JSON body, sent broken,
 * as text/plain and over 1 MiB, to a resource that exists (so the answer is about the body);
 * each operation with a UUID in its path, with an id that is not one.
 */
const encoder = new TextEncoder();
/** One mebibyte of padding, made once and copied into each oversized body. */
const PADDING = new Uint8Array(1024 * 1024).fill(0x78);

/** `body` (a JSON object) with a 1 MiB string field added: valid JSON over the limit, as bytes. */
function oversized(body: string): Uint8Array<ArrayBuffer> {
  const head = encoder.encode(`${body.slice(0, -1)}, "padding": "`);
  const tail = encoder.encode('"}');
  const bytes = new Uint8Array(head.length + PADDING.length + tail.length);
  bytes.set(head, 0);
  bytes.set(PADDING, head.length);
  bytes.set(tail, head.length + PADDING.length);
  return bytes;
}

export function transportChecks(operations: readonly OperationInfo[]): Check[] {
  const checks: Check[] = [malformedJson()];
  for (const op of operations) {
    if (op.hasBody && op.scope !== null) {
      checks.push({
        id: `transport.body.${op.id}`,
        title: `${BROKEN}; ${MEDIA.replace('openapi.yaml: ', '')}; ${LARGE.replace('openapi.yaml: ', '')} — ${op.method} ${op.path} (${op.id})`,
        level: 'strict',
        groups: groupsOf(op),
        // A wrongly accepted body would buy tokens.
        buys: op.id === 'purchaseTokens' || undefined,
        covers: [op.id],
        requests: 6,
        run: async (s) => {
          const path = await ownedPathValues(s, op.path);
          const body = JSON.stringify(validBody(s, op));
          expectError(await s.client.op(op.id, path, { rawBody: body.slice(0, -1), contentType: 'application/json' }), 400, 'VALIDATION_ERROR', `${BROKEN} (${op.id})`);
          expectError(await s.client.op(op.id, path, { rawBody: body, contentType: 'text/plain' }), 415, 'UNSUPPORTED_MEDIA_TYPE', `${MEDIA} (${op.id})`);
          expectError(await s.client.op(op.id, path, { rawBody: oversized(body), contentType: 'application/json' }), 413, 'PAYLOAD_TOO_LARGE', `${LARGE} (${op.id})`);
        },
      });
    }
    const uuids = pathParameters(op).filter((p) => p.schema.format === 'uuid');
    if (uuids.length === 0 || op.scope === null) continue;
    const last = uuids.at(-1)!;
    checks.push({
      id: `transport.malformed-id.${op.id}`,
      title: `${MALFORMED_ID} — ${last.name} of ${op.method} ${op.path} (${op.id})`,
      level: 'strict',
      groups: groupsOf(op),
      covers: [op.id],
      requests: 4,
      run: async (s) => {
        const path = await ownedPathValues(s, op.path.slice(0, op.path.indexOf(`{${last.name}}`)));
        path[last.name] = 'not-a-uuid';
        for (const p of pathParameters(op)) path[p.name] ??= s.uuid();
        const body = op.hasBody ? validBody(s, op) : undefined;
        const query = op.id === 'downloadDeliverable' ? { format: 'md' } : undefined;
        expectError(await s.client.op(op.id, path, { body, query }), 400, 'VALIDATION_ERROR', `${MALFORMED_ID} (${op.id}, ${last.name})`);
      },
    });
  }
  return checks;
}

const MALFORMED_JSON = 'Errors, Endpoints: a request body that is not well-formed JSON does not match the documented shape: VALIDATION_ERROR (openapi.yaml, strict: 400), never a 5xx, and a build so refused charges nothing';

/** The spec's VALIDATION_ERROR for a body that is not JSON at all, on both documented writes. */
function malformedJson(): Check {
  return {
    id: 'errors.malformed-json',
    title: MALFORMED_JSON,
    level: 'documented',
    covers: ['createTarget', 'createBuild'],
    requests: 4,
    run: async (s) => {
      const before = (await s.client.op('getTokenBalance')).json?.balance;
      for (const op of ['createTarget', 'createBuild']) {
        const reply = await s.client.op(op, {}, { rawBody: '{"name": "unfinished', contentType: 'application/json' });
        expectError(reply, s.strict ? 400 : '4xx', 'VALIDATION_ERROR', `${MALFORMED_JSON} (${op})`);
      }
      const after = (await s.client.op('getTokenBalance')).json?.balance;
      expectEqual(after, before, `${MALFORMED_JSON}: the balance after both refusals`);
    },
  };
}
