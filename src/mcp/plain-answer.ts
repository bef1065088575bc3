/**
 * An /mcp answer as plain data (status, headers, text): what the checks before any message
 * is served produce, so the Fetch path and the stateless fast path send the same bytes.
 * Header names are lowercase and in the order a Fetch `Headers` iterates them (sorted),
 * which is the order the node adapter writes a `Response`'s headers in.
 */
export interface PlainAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** A JSON answer with the simulator's own content type (the spec's error shape, mostly). */
export function plainJson(status: number, body: unknown, headers: Record<string, string> = {}): PlainAnswer {
  return { status, headers: sortedHeaders({ 'content-type': JSON_TYPE, ...headers }), body: JSON.stringify(body) };
}

/** A JSON-RPC error answered before a message reaches the MCP server: no request id to echo. */
export function plainRpcError(status: number, code: number, message: string, headers: Record<string, string> = {}): PlainAnswer {
  return plainJson(status, { jsonrpc: '2.0', error: { code, message }, id: null }, headers);
}

export function toResponse(answer: PlainAnswer): Response {
  return new Response(answer.body, { status: answer.status, headers: answer.headers });
}

function sortedHeaders(headers: Record<string, string>): Record<string, string> {
  const names = Object.keys(headers);
  if (names.length === 1) return headers;
  const sorted: Record<string, string> = {};
  for (const name of names.sort()) sorted[name] = headers[name] as string;
  return sorted;
}
