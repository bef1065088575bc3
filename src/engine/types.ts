/**
 * The engine's own request and response: plain data, so that every adapter (node http,
 * express, msw, an MCP tool call) translates to and from them cheaply, and the engine
 * never depends on a framework or on `node:` modules.
 */
export interface EngineRequest {
  method: string;
  /** Path and query string, e.g. `/api/v1/builds?limit=5`. */
  url: string;
  /** Header names in lower case. */
  headers: Record<string, string | undefined>;
  /** The raw body; adapters stop reading after `maxBodyBytes + 1` bytes. */
  body?: Uint8Array;
  /** The client's address as the socket reports it; absent in-process (msw, tests). */
  remoteAddress?: string;
  /**
   * The client's connection, as an opaque identity (the socket): a keep-alive client that sends
   * the same key again is not looked up again. Absent in-process.
   */
  connection?: object;
}

export interface EngineResponse {
  status: number;
  headers: Record<string, string>;
  /** A JSON text, a file's text, or bytes (audio, images). */
  body: string | Uint8Array;
  /**
   * A text body's UTF-8 bytes, when they were made already (a completed build's cached answer):
   * what a socket adapter sends instead of encoding `body` again. Only ever the encoding of this
   * `body`: whoever answers another body leaves it out.
   */
  bodyBytes?: Uint8Array;
  /** The text `bodyBytes` encode: a socket adapter sends them only while `body` is still this text. */
  bodyBytesOf?: string | Uint8Array;
  /** A response that goes on after its body (server-sent events): the adapter keeps writing until the client leaves. */
  stream?: EventStream;
}

export interface EventStream {
  /** Starts the stream: `send` gets each further chunk of text, `end` is called if the server ends it; answers the function that stops it. */
  open(send: (chunk: string) => void, end: () => void): () => void;
}

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** What an operation answers; the engine adds the common headers and serializes. */
export interface Reply {
  status: number;
  /** A JSON body, or */
  json?: unknown;
  /** a file body with its content type (and a text body's UTF-8 bytes, when made already). */
  file?: { body: string | Uint8Array; contentType: string; bytes?: Uint8Array };
  headers?: Record<string, string>;
  /** Server-sent events that follow the body (the journal's live feed). */
  stream?: EventStream;
  /** false for a page other origins must not read (the OAuth sign-in page): no CORS headers. */
  crossOrigin?: false;
  /** Work that runs on after the handler returns (a scenario loaded in slices): the reply to send is this one's, once settled. */
  later?: Promise<Reply>;
}
