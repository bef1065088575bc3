import { parseMessage } from '../mcp-client.js';
import { ContractFailure } from '../../shared/outcomes.js';
import type { Answer, Span } from './answer.js';

/** How the model phase reads MCP answers: JSON-RPC over Streamable HTTP, a tool result, or a credential refused. */
export const PROTOCOL = '2025-11-25';

export interface RpcReply {
  status: number;
  headers: Record<string, string>;
  message: any;
}

const TOOL_ERROR = 'MCP: a tool error is an isError result whose text is the REST error body { error, code, details }';

/** A tool call's outcome as an answer: the result, the error it carries, or the HTTP refusal of the credential. */
export function toolAnswer(tool: string, reply: RpcReply, within: Span): Answer {
  if (reply.status === 401 || reply.status === 403) {
    const body = reply.message;
    return { via: 'mcp', status: reply.status, ok: false, json: body, code: body?.code, text: JSON.stringify(body ?? null), headers: reply.headers, within };
  }
  const result = reply.message?.result;
  if (reply.status !== 200 || !result) {
    throw new ContractFailure(`MCP: a tool call answers a JSON-RPC result\n    tools/call ${tool}: HTTP ${reply.status} ${JSON.stringify(reply.message ?? null).slice(0, 300)}`);
  }
  if (!result.isError) return { via: 'mcp', status: undefined, ok: true, json: result.structuredContent, code: undefined, text: JSON.stringify(result.structuredContent ?? null), headers: {}, within };
  let error: any;
  try {
    error = JSON.parse(result.content?.[0]?.text);
  } catch {
    throw new ContractFailure(`${TOOL_ERROR}\n    tools/call ${tool}: ${JSON.stringify(result).slice(0, 300)}`);
  }
  if (typeof error?.code !== 'string' || typeof error?.error !== 'string') throw new ContractFailure(`${TOOL_ERROR}\n    tools/call ${tool}: ${JSON.stringify(result).slice(0, 300)}`);
  return { via: 'mcp', status: undefined, ok: false, json: error, code: error.code, text: JSON.stringify(error), headers: {}, within };
}

/** The JSON-RPC answer of an MCP POST, JSON or event stream: the suite's own reader. */
export const parseRpc = parseMessage;
