import { closeSync, openSync, renameSync, writeSync } from 'node:fs';
import { redactSecrets } from '../shared/body-redaction.js';
import { harHeaders, isTextual, queryOf, type HarEntry } from '../shared/har.js';
import { redactUrl } from '../shared/url-redaction.js';
import type { PassedExchange } from './server.js';

/** Headers of one connection or one proxy hop: not what the client and the service said to each other. */
const NOT_RECORDED = new Set(['host', 'connection', 'keep-alive', 'transfer-encoding', 'content-length', 'proxy-connection']);

const decoder = new TextDecoder();

/**
 * What passes through the proxy, as HAR 1.2: every exchange in the order it ended, its secrets
 * cut as the simulator's journal cuts them (keys to their `svc_live_…abcd` hint, OAuth codes and
 * tokens, verifiers, share tokens in URLs, the Authorization header). Each entry is written as it
 * ends (nothing piles up in memory) to a temporary file readable by its owner only, which becomes
 * the recording when the proxy stops: the file is never half-written.
 */
export class HarRecorder {
  private readonly temporary: string;
  private readonly fd: number;
  private entries = 0;

  constructor(
    private readonly file: string,
    private readonly target: string,
    creatorVersion: string,
  ) {
    this.temporary = `${file}.${process.pid}.tmp`;
    this.fd = openSync(this.temporary, 'w', 0o600);
    const head = JSON.stringify({ log: { version: '1.2', creator: { name: 'content-contracts proxy', version: creatorVersion }, pages: [], entries: [] } });
    writeSync(this.fd, `${head.slice(0, -3)}\n`); // up to the entries' opening bracket
  }

  get size(): number {
    return this.entries;
  }

  add(x: PassedExchange): void {
    const url = redactUrl(`${this.target.replace(/\/$/, '')}${x.url}`);
    const requestType = x.requestHeaders['content-type'] ?? '';
    const responseType = x.responseHeaders['content-type'] ?? '';
    const entry: HarEntry = {
      startedDateTime: new Date(x.endedAt - x.durationMs).toISOString(),
      time: x.durationMs,
      request: {
        method: x.method,
        url,
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: harHeaders(x.requestHeaders, NOT_RECORDED),
        queryString: queryOf(url),
        headersSize: -1,
        bodySize: x.requestBody.byteLength,
      },
      response: {
        status: x.status,
        statusText: '',
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: harHeaders(x.responseHeaders, NOT_RECORDED),
        content: content(x.responseBody, x.responseBodyComplete, responseType),
        redirectURL: '',
        headersSize: -1,
        bodySize: x.responseBody.byteLength,
      },
      cache: {},
      timings: { send: 0, wait: x.durationMs, receive: 0 },
    };
    if (x.requestBody.byteLength > 0) {
      entry.request.postData = x.requestBodyComplete
        ? { mimeType: requestType, text: isTextual(requestType) ? redactSecrets(decoder.decode(x.requestBody)) : Buffer.from(x.requestBody).toString('base64') }
        : { mimeType: requestType, text: '' };
      if (!x.requestBodyComplete) entry.comment = 'the request body was larger than the capture limit and is not kept';
    }
    writeSync(this.fd, `${this.entries++ === 0 ? '' : ',\n'}${JSON.stringify(entry)}`);
  }

  /** Closes the recording and puts it in place; answers how many exchanges it holds. */
  write(): number {
    writeSync(this.fd, '\n]}}\n');
    closeSync(this.fd);
    renameSync(this.temporary, this.file);
    return this.entries;
  }
}

function content(body: Uint8Array, complete: boolean, mimeType: string): HarEntry['response']['content'] {
  if (!complete) return { size: -1, mimeType, comment: 'larger than the capture limit: not kept' };
  if (body.byteLength === 0) return { size: 0, mimeType };
  if (isTextual(mimeType)) return { size: body.byteLength, mimeType, text: redactSecrets(decoder.decode(body)) };
  return { size: body.byteLength, mimeType, text: Buffer.from(body).toString('base64'), encoding: 'base64' };
}
