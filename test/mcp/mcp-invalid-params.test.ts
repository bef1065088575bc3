import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastBody, mcpRig, type McpRig } from './support.js';

/**
 * Hostile or careless JSON-RPC, sent raw (an SDK client would refuse to build it): each is a
 * clean refusal saying what is wrong, never an internal error (-32603) or a dump of the
 * validator's issues.
 */
let rig: McpRig;
let session: string;
let nextId = 1;

beforeAll(async () => {
  rig = await mcpRig();
  const init = await post({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
  session = init.headers.get('mcp-session-id')!;
  await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
});
afterAll(async () => rig.close());

function post(body: unknown): Promise<Response> {
  return fetch(`${rig.baseUrl}/mcp`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${rig.simulator.keys.readWrite}`,
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': '2025-11-25',
      ...(session ? { 'Mcp-Session-Id': session } : {}),
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** A raw POST, timed from the moment its whole body has left to the end of the answer. */
function timedPost(body: string): Promise<{ status: number; body: string; afterSent: number }> {
  const url = new URL(`${rig.baseUrl}/mcp`);
  return new Promise((resolve, reject) => {
    let sentAt = 0;
    const req = request(
      { host: url.hostname, port: url.port, path: '/mcp', method: 'POST', headers: { authorization: `Bearer ${rig.simulator.keys.readWrite}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', 'mcp-session-id': session } },
      (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, afterSent: performance.now() - sentAt }));
      },
    );
    req.on('error', reject);
    req.end(body, () => (sentAt = performance.now()));
  });
}

/** The JSON-RPC answer to one request, from its SSE event or its JSON body. */
async function rpc(method: string, paramsJson: string): Promise<{ result?: any; error?: { code: number; message: string } }> {
  const res = await post(`{"jsonrpc":"2.0","id":${nextId++},"method":"${method}","params":${paramsJson}}`);
  expect(res.status).toBe(200);
  const text = await res.text();
  const data = text.split('\n').find((line) => line.startsWith('data: '));
  return JSON.parse(data ? data.slice('data: '.length) : text);
}

describe('MCP: malformed parameters', () => {
  it('a message nested 5,000 deep is refused before it is parsed (-32600)', async () => {
    let deep = '"cold brew"';
    for (let i = 0; i < 5000; i++) deep = `{"a":${deep}}`;
    const res = await post(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"createTarget","arguments":{"name":"Deep","slug":"deep","description":"d","brandKit":${deep}}}}`);
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatchObject({ code: -32600, message: expect.stringMatching(/nests deeper than 128 levels/) });
  });

  it.each([
    ['nested 500,000 levels deep', `${'['.repeat(500_000)}1${']'.repeat(500_000)}`, /nests deeper than 128 levels/],
    ['an object', '{"a":1}', /an id must be a string or a number/],
    ['a 10,000-character string', `"${'x'.repeat(10_000)}"`, /an id is at most 256 characters/],
  ])('a ping whose id is %s is refused at once (-32600), before any schema check', async (_, id, message) => {
    const times: number[] = [];
    for (let i = 0; i < 7; i++) {
      const { status, body, afterSent } = await timedPost(`{"jsonrpc":"2.0","id":${id},"method":"ping"}`);
      expect(status).toBe(400);
      expect(JSON.parse(body).error).toMatchObject({ code: -32600, message: expect.stringMatching(message) });
      times.push(afterSent);
    }
    // Answered within 50 ms of the body's last byte (the median of seven), however deep it nests.
    expect(times.sort((a, b) => a - b)[3]).toBeLessThan(50);
  });

  it('tool arguments nested 100 deep are an invalid-input result, as REST answers 400', async () => {
    let deep = '"cold brew"';
    for (let i = 0; i < 100; i++) deep = `{"a":${deep}}`;
    const answer = await rpc('tools/call', `{"name":"createTarget","arguments":{"name":"Deep","slug":"deep","description":"d","brandKit":${deep}}}`);
    expect(answer.error).toBeUndefined();
    expect(answer.result.isError).toBe(true);
    expect(answer.result.structuredContent).toBeUndefined();
    expect(JSON.parse(answer.result.content[0].text)).toEqual({
      error: 'The tool arguments are not valid.',
      code: 'VALIDATION_ERROR',
      details: { fields: [{ path: 'brandKit', message: 'nests deeper than 64 levels' }] },
    });
    // Nesting within the limit reaches the engine, which judges it as REST does.
    let shallow = '"x"';
    for (let i = 0; i < 10; i++) shallow = `{"a":${shallow}}`;
    const judged = await rpc('tools/call', `{"name":"createTarget","arguments":{"name":"Deep","slug":"deep","description":"d","brandKit":${shallow}}}`);
    expect(JSON.parse(judged.result.content[0].text)).toEqual(lastBody(rig));
    expect(lastBody(rig)).toMatchObject({ code: 'VALIDATION_ERROR' });
    // Wide is not deep: 300,000 items in one array are judged by the engine too.
    const wide = await rpc('tools/call', `{"name":"createTarget","arguments":{"name":"Wide","slug":"wide","description":"d","brandKit":[${Array(300_000).fill('0').join(',')}]}}`);
    expect(JSON.parse(wide.result.content[0].text)).toEqual(lastBody(rig));
  });

  it.each([
    ['a number', '{"uri":42}', 'Invalid params for resources/read: uri: must be a string: a content-service:// URI'],
    ['no uri', '{}', 'Invalid params for resources/read: uri: must be a string: a content-service:// URI'],
  ])('resources/read with %s as uri is invalid params (-32602), in words', async (_, params, message) => {
    const answer = await rpc('resources/read', params);
    expect(answer.error).toEqual({ code: -32602, message });
  });

  it.each([
    ['a number as an argument', '{"name":"write-blog-post","arguments":{"targetId":5,"topic":"x"}}', 'Invalid params for prompts/get: arguments.targetId: must be a string'],
    ['a string as the arguments', '{"name":"write-blog-post","arguments":"x"}', 'Invalid params for prompts/get: arguments: must be an object of strings'],
    ['a number as the name', '{"name":7}', 'Invalid params for prompts/get: name: must be a string: the name of a prompt'],
  ])('prompts/get with %s is invalid params (-32602), in words', async (_, params, message) => {
    const answer = await rpc('prompts/get', params);
    expect(answer.error).toEqual({ code: -32602, message });
  });

  it('well-formed reads and prompts still answer', async () => {
    const prompt = await rpc('prompts/get', '{"name":"write-blog-post","arguments":{"targetId":"t-1","topic":"cold brew"}}');
    expect(prompt.result.messages[0].content.text).toContain('cold brew');
    const missing = await rpc('resources/read', '{"uri":"content-service://deliverables/00000000-0000-4000-8000-000000000000"}');
    // Resource not found: invalid params whose data is the URI alone (the SDK's spelling on every revision).
    expect(missing.error).toMatchObject({ code: -32602, data: { uri: 'content-service://deliverables/00000000-0000-4000-8000-000000000000' } });
  });
});
