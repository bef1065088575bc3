import { ApiError } from '../errors/api-error.js';
import { YAML_TYPES } from '../contract/operations.js';

/** Request bodies above this are refused with 413 (inferred limit; the spec sets none). */
export const MAX_BODY_BYTES = 1024 * 1024;

/** OAuth forms and registrations are a few hundred bytes; a larger cap there only feeds floods. */
export const MAX_OAUTH_BODY_BYTES = 64 * 1024;

/**
 * A whole simulation sent to POST /_sim/restore (documented in simulator-control.yaml): what
 * bounds a restore's memory (the body, the values read from it, the accounts built aside, next
 * to the live ones) and its time. A larger state is restored with --state-file at start.
 */
export const MAX_RESTORE_BODY_BYTES = 64 * 1024 * 1024;

/** The most body bytes a request to this path may carry: adapters keep one byte more and no more. */
export function bodyLimitFor(url: string): number {
  if (url.startsWith('/oauth/')) return MAX_OAUTH_BODY_BYTES;
  return url === '/_sim/restore' || url.startsWith('/_sim/restore?') ? MAX_RESTORE_BODY_BYTES : MAX_BODY_BYTES;
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads a JSON request body: 413 when too large, 415 when not sent as JSON, 400 when
 * not well-formed. Returns undefined when there is no body at all.
 */
export function readJsonBody(contentType: string | undefined, body: Uint8Array | undefined, maxBytes = MAX_BODY_BYTES): unknown {
  const bytes = jsonBodyBytes(contentType, body, maxBytes);
  if (bytes === undefined) return undefined;
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    throw new ApiError(400, 'VALIDATION_ERROR', 'The request body is not valid UTF-8.', { fields: [{ path: 'body', message: 'is not valid UTF-8' }] });
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    const message = `is not valid JSON (${(e as Error).message})`;
    throw new ApiError(400, 'VALIDATION_ERROR', `The request body ${message}.`, { fields: [{ path: 'body', message }] });
  }
}

/** A JSON body's bytes, unread: 413 and 415 as for `readJsonBody`; undefined when there is no body. */
export function jsonBodyBytes(contentType: string | undefined, body: Uint8Array | undefined, maxBytes: number): Uint8Array | undefined {
  if (!body || body.byteLength === 0) return undefined;
  if (body.byteLength > maxBytes) {
    throw new ApiError(413, 'PAYLOAD_TOO_LARGE', `The request body is larger than ${maxBytes} bytes.`, { maxBytes });
  }
  const mediaType = (contentType ?? '').split(';')[0]?.trim().toLowerCase();
  if (mediaType !== 'application/json' && !mediaType?.endsWith('+json')) {
    throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the request body as JSON with "Content-Type: application/json".', {
      received: contentType ?? null,
    });
  }
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType ?? '')?.[1]?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', `JSON bodies are read as UTF-8; charset=${charset} is not supported.`, { received: contentType ?? null });
  }
  return body;
}

/**
 * A YAML body, for an operation that takes one (a scenario): undefined when the body is not
 * sent as YAML (it is then read as JSON). 413 as for JSON; 415 where no YAML reader was handed
 * over (the engine called in-process, which takes the value itself).
 */
export function readYamlBody(contentType: string | undefined, body: Uint8Array | undefined, maxBytes: number, readYaml: ((text: string) => unknown) | undefined): { value: unknown } | undefined {
  const mediaType = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (!YAML_TYPES.includes(mediaType) || !body || body.byteLength === 0) return undefined;
  if (body.byteLength > maxBytes) throw new ApiError(413, 'PAYLOAD_TOO_LARGE', `The request body is larger than ${maxBytes} bytes.`, { maxBytes });
  if (!readYaml) {
    throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'YAML bodies are read by the simulator served over HTTP (createApp, the CLI); send this one as JSON with "Content-Type: application/json".', { received: contentType ?? null });
  }
  let text: string;
  try {
    text = decoder.decode(body);
  } catch {
    throw new ApiError(400, 'VALIDATION_ERROR', 'The request body is not valid UTF-8.', { fields: [{ path: 'body', message: 'is not valid UTF-8' }] });
  }
  return { value: readYaml(text) };
}
