import type { Client } from '@modelcontextprotocol/client';
import { createTaskSessionFromClient, type TaskEnabledSession } from '@modelcontextprotocol/ext-tasks/client';
import type { JsonValue } from '@modelcontextprotocol/ext-tasks/core';

/**
 * Task sessions of the official requester library (`@modelcontextprotocol/ext-tasks`) over a
 * connected SDK client. On 2026-07-28 the library sends task traffic itself, through a
 * host-owned dispatcher (its `rawDispatch`): here a plain HTTP exchange with the headers the
 * revision requires, answered in JSON or as an event stream.
 */
export type Era = '2025-11-25' | '2026-07-28';

export function taskSession(client: Client, era: Era, mcpUrl: string, credential: string, endpointId: string): TaskEnabledSession {
  if (era === '2025-11-25') return createTaskSessionFromClient(client, { endpointId });
  let next = 1;
  return createTaskSessionFromClient(client, {
    endpointId,
    v2RequestFraming: { protocolVersion: '2026-07-28', clientInfo: { name: 'ext-tasks-test', version: '1' }, clientCapabilities: {} },
    rawDispatch: async (request) => {
      const message = { jsonrpc: '2.0', id: next++, ...(request as Record<string, JsonValue>) } as unknown as { method: string; params?: Record<string, unknown> };
      const name = message.method === 'tools/call' ? message.params?.name : message.params?.taskId;
      const res = await fetch(mcpUrl, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${credential}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': message.method,
          ...(typeof name === 'string' ? { 'mcp-name': name } : {}),
        },
        body: JSON.stringify(message),
      });
      const answer = await readAnswer(res);
      return 'error' in answer ? { kind: 'error', error: answer.error } : { kind: 'result', result: answer.result };
    },
  });
}

/** The JSON-RPC response in a JSON body or among an event stream's events. */
async function readAnswer(res: Response): Promise<{ result: JsonValue } | { error: { code: number; message: string; data?: JsonValue } }> {
  const text = await res.text();
  if (!(res.headers.get('content-type') ?? '').startsWith('text/event-stream')) return JSON.parse(text);
  for (const line of text.split('\n')) {
    if (!line.startsWith('data:')) continue;
    const event = JSON.parse(line.slice(5)) as Record<string, unknown>;
    if ('result' in event || 'error' in event) return event as never;
  }
  throw new Error(`no JSON-RPC response in the event stream: ${text.slice(0, 200)}`);
}
