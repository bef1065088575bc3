import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { mcpRig, type McpRig } from './support.js';

/**
 * /mcp behind node:http (the listener the CLI and the express adapter share): a small message
 * is read whole before the endpoint runs, a larger one streams to it, an answer goes out in one
 * piece, and a client that leaves mid-body costs the server nothing.
 */
const VERSION = '2026-07-28';
const META = { 'io.modelcontextprotocol/protocolVersion': VERSION, 'io.modelcontextprotocol/clientCapabilities': {} };
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': VERSION, 'mcp-method': 'tools/call' };

let rig: McpRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

function callBody(name: string, args: Record<string, unknown>): string {
  return JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name, arguments: args, _meta: META } });
}

async function post(body: string, name: string) {
  return fetch(`${rig!.baseUrl}/mcp`, { method: 'POST', headers: { ...HEADERS, 'mcp-name': name, authorization: `Bearer ${rig!.simulator.keys.readWrite}` }, body });
}

describe('/mcp over node:http', () => {
  it('serves a small message and a streamed one alike, and refuses one over the body limit with 413', async () => {
    rig = await mcpRig();
    const small = await post(callBody('getTokenBalance', {}), 'getTokenBalance');
    expect(small.status).toBe(200);
    const smallAnswer = (await small.json()) as { id: number; result: { isError?: boolean; structuredContent?: { balance?: unknown } } };
    expect(smallAnswer.id).toBe(7);
    expect(smallAnswer.result.isError).toBeFalsy();
    expect(smallAnswer.result.structuredContent).toEqual(JSON.parse(rig.exchanges.at(-1)!.body));

    // 200 KB: past what is read whole, so it streams to the endpoint; the engine judges the argument.
    const large = await post(callBody('createTarget', { name: 'x'.repeat(200_000), slug: 'large' }), 'createTarget');
    expect(large.status).toBe(200);
    const largeAnswer = (await large.json()) as { id: number; result: { isError?: boolean; content: { text: string }[] } };
    expect(largeAnswer.id).toBe(7);
    expect(largeAnswer.result.isError).toBe(true);
    expect(JSON.parse(largeAnswer.result.content[0]!.text)).toMatchObject({ code: 'VALIDATION_ERROR' });

    const tooLarge = await post(callBody('createTarget', { name: 'x'.repeat(1_100_000), slug: 'huge' }), 'createTarget');
    expect(tooLarge.status).toBe(413);
    const refusal = (await tooLarge.json()) as { error: string; code: string; details: Record<string, unknown> };
    expect(refusal).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', details: { maxBytes: 1024 * 1024 } });
    expect(typeof refusal.error).toBe('string');
  });

  it('keeps serving after a client leaves in the middle of its message', async () => {
    rig = await mcpRig();
    const { port } = new URL(rig.baseUrl);
    await new Promise<void>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.write(
          `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${rig!.simulator.keys.readWrite}\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"jsonrpc":"2.0",`,
        );
        setTimeout(() => socket.destroy(), 50);
      });
      socket.on('close', () => resolve());
      socket.on('error', reject);
    });
    const after = await post(callBody('getTokenBalance', {}), 'getTokenBalance');
    expect(after.status).toBe(200);
    expect(((await after.json()) as { result: { isError?: boolean } }).result.isError).toBeFalsy();
  });
});
