// @ts-check
/**
 * The dashboard's only way to the simulator: the documented control API (simulator-control.yaml)
 * on this same origin. With `--control-token`, the token the user pastes is kept for this tab
 * only (sessionStorage) and sent in X-Control-Token.
 */

const TOKEN_KEY = 'content-sim-control-token';

export class ControlError extends Error {
  /** @param {number} status @param {any} body */
  constructor(status, body) {
    super(body && typeof body.error === 'string' ? body.error : `HTTP ${status}`);
    this.status = status;
    this.code = body?.code;
    this.details = body?.details;
  }
}

export class ControlApi {
  constructor() {
    this.token = sessionStorage.getItem(TOKEN_KEY) ?? undefined;
  }

  /** @param {string} token */
  setToken(token) {
    this.token = token || undefined;
    if (token) sessionStorage.setItem(TOKEN_KEY, token);
    else sessionStorage.removeItem(TOKEN_KEY);
  }

  headers(json = false) {
    /** @type {Record<string, string>} */
    // Named, so that the server's request log can leave the dashboard's own polling out.
    const headers = { accept: 'application/json', 'x-sim-client': 'dashboard' };
    if (json) headers['content-type'] = 'application/json';
    if (this.token) headers['x-control-token'] = this.token;
    return headers;
  }

  /** @param {string} path */
  get(path) {
    return this.call('GET', path);
  }

  /** @param {string} path @param {unknown} [body] */
  post(path, body = {}) {
    return this.call('POST', path, body);
  }

  /** @param {string} path */
  delete(path) {
    return this.call('DELETE', path);
  }

  /** @param {string} method @param {string} path @param {unknown} [body] */
  async call(method, path, body) {
    const response = await fetch(path, { method, headers: this.headers(body !== undefined), body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await response.text();
    const json = text ? JSON.parse(text) : null;
    if (!response.ok) throw new ControlError(response.status, json);
    return json;
  }

  /**
   * Server-sent events read with fetch (EventSource cannot send the control token), resumed
   * from the last id seen when the connection breaks. `fromId` asks for what came after it
   * first: '0' replays everything the server still keeps.
   * @param {string} path @param {(event: {id: string, event: string, data: string}) => void} onEvent
   * @param {AbortSignal} signal @param {(error: unknown) => void} onError @param {string} [fromId]
   */
  async stream(path, onEvent, signal, onError, fromId) {
    let lastId = fromId;
    while (!signal.aborted) {
      try {
        const headers = { ...this.headers(), accept: 'text/event-stream', ...(lastId ? { 'last-event-id': lastId } : {}) };
        const response = await fetch(path, { headers, signal });
        if (!response.ok || !response.body) throw new ControlError(response.status, await response.json().catch(() => null));
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          // One pass over the chunk: a replay of thousands of entries arrives at once.
          let start = 0;
          let end;
          while ((end = buffer.indexOf('\n\n', start)) !== -1) {
            const event = parseEvent(buffer.slice(start, end));
            start = end + 2;
            if (event) {
              if (event.id) lastId = event.id;
              onEvent(event);
            }
          }
          buffer = buffer.slice(start);
        }
      } catch (error) {
        if (signal.aborted) return;
        onError(error);
        // A missing token or a control API switched off needs the user first: no retrying.
        if (error instanceof ControlError && (error.status === 401 || error.status === 404)) return;
      }
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  }
}

/** One event block of a text/event-stream; comments and `retry` lines carry no event. */
function parseEvent(block) {
  const event = { id: '', event: 'message', data: '' };
  let hasData = false;
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'id') event.id = value;
    else if (field === 'event') event.event = value;
    else if (field === 'data') {
      event.data += (hasData ? '\n' : '') + value;
      hasData = true;
    }
  }
  return hasData ? event : null;
}
