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
  /**
   * The accounts' times the server may have answered at: from the time when the call was sent to
   * the time the clock moves under way when its answer came would bring (one instant unless calls
   * sent at once moved the clocks meanwhile).
   */
  within: Span;
}

/** Instants in ms, from the earliest to the latest possible. */
export interface Span {
  from: number;
  to: number;
}
