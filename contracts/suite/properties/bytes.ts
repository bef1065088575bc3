import type { Check } from '../check.js';
import { expectStatus, mediaType } from '../checks/expect.js';
import { ownedPathValues } from '../checks/owned-ids.js';
import type { OperationInfo } from '../../shared/openapi-model.js';
import { ContractFailure, expectThat } from '../../shared/outcomes.js';
import type { Session } from '../session.js';

export const ESCAPES = 'openapi.yaml, RFC 3986 §2.1: a URL with a malformed percent-escape (in a path segment or a query value) is a client error: a 4xx in the { error, code, details } shape, never a 5xx';
export const MEDIA_TYPE = 'RFC 9110 §8.3.1: a JSON body is accepted with media-type parameters and in any letter case (application/json; charset=utf-8, Application/JSON), and every JSON answer is application/json, in UTF-8 if it names a charset';

const MALFORMED = ['%E0%A4%A', '%ZZ', 'a%', '%C3%28'];

function errorShape(status: number, text: string, what: string): void {
  if (status >= 500 || status < 400) throw new ContractFailure(`${ESCAPES}: ${what} answered ${status} ${text.slice(0, 160)}`);
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ContractFailure(`${ESCAPES}: ${what} answered ${status} with a body that is not JSON: ${text.slice(0, 160)}`);
  }
  expectThat(typeof json?.error === 'string' && typeof json?.code === 'string' && typeof json?.details === 'object', `${ESCAPES}: ${what} answered ${status} ${text.slice(0, 160)}`);
}

async function rawGet(s: Session, path: string): Promise<{ status: number; text: string }> {
  // The key is named: these calls count in its window where the REST rules do not see them.
  const res = await s.client.raw(path, { headers: { authorization: `Bearer ${s.keys.readWrite}`, accept: 'application/json' } }, s.keys.readWrite);
  return { status: res.status, text: await res.text() };
}

export function byteChecks(operations: readonly OperationInfo[]): Check[] {
  const withId = operations.filter((o) => o.method === 'GET' && /^\/api\/v1\/[a-z-]+\/\{[a-zA-Z]+\}$/.test(o.path));
  const lists = operations.filter((o) => o.method === 'GET' && o.parameters.some((p) => p.name === 'cursor') && !o.path.includes('{'));
  return [
    {
      id: 'properties.malformed-escapes',
      title: ESCAPES,
      level: 'strict',
      covers: [],
      requests: withId.length + lists.length + 2 * MALFORMED.length,
      run: async (s) => {
        // Each kind of malformed escape once on one path and one cursor; one on every other path and list (decoding is the router's).
        for (const [i, op] of withId.entries()) {
          for (const bad of i === 0 ? MALFORMED : MALFORMED.slice(0, 1)) {
            const path = op.path.replace(/\{[^}]+\}/, bad);
            const { status, text } = await rawGet(s, path);
            errorShape(status, text, `GET ${path} (${op.id})`);
          }
        }
        for (const [i, op] of lists.entries()) {
          for (const bad of i === 0 ? MALFORMED : MALFORMED.slice(1, 2)) {
            const path = `${op.path}?cursor=${bad}`;
            const { status, text } = await rawGet(s, path);
            errorShape(status, text, `GET ${path} (${op.id})`);
          }
        }
      },
    },
    {
      id: 'properties.media-type-parameters',
      title: MEDIA_TYPE,
      level: 'strict',
      covers: ['createTarget'],
      requests: 10,
      run: async (s) => {
        for (const contentType of ['application/json; charset=utf-8', 'application/json;charset="UTF-8"', 'Application/JSON']) {
          const body = JSON.stringify({ ...s.newTargetName('media-type'), description: 'A target sent with media-type parameters.' });
          const reply = await s.client.op('createTarget', {}, { rawBody: body, contentType });
          if (reply.status < 300) await s.client.op('deleteTarget', { targetId: String(reply.json?.id) });
          expectStatus(reply, 201, `${MEDIA_TYPE}: createTarget sent as ${contentType}`);
          const answered = reply.headers['content-type'] ?? '';
          expectThat(mediaType(reply) === 'application/json', `${MEDIA_TYPE}: the answer's Content-Type is ${answered}`);
          const charset = /charset="?([^";]+)/i.exec(answered)?.[1];
          expectThat(charset === undefined || charset.toLowerCase() === 'utf-8', `${MEDIA_TYPE}: the answer's charset is ${charset}`);
        }
        const path = await ownedPathValues(s, '/{targetId}');
        const read = await s.client.op('getTarget', path);
        expectThat(read.bytes[0] !== 0xef, `${MEDIA_TYPE}: a JSON answer starts with a byte-order mark`);
      },
    },
  ];
}
