import { plainRpcError, toResponse } from './plain-answer.js';

/** A JSON-RPC error answered before a message reaches the MCP server: no request id to echo. */
export function rpcError(status: number, code: number, message: string, headers: Record<string, string> = {}): Response {
  return toResponse(plainRpcError(status, code, message, headers));
}
