/** One answer, from REST or from an MCP tool call (which has no HTTP status of its own). */
export interface Answer {
  via: 'rest' | 'mcp';
  /** The HTTP status (REST only). */
  status: number | undefined;
  ok: boolean;
  /** The body (REST), the structuredContent or the error a tool result carries (MCP). */
  json: any;
  code: string | undefined;
  text: string;
  headers: Record<string, string>;
}
