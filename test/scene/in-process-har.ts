import { redactSecrets } from '../../contracts/shared/body-redaction.js';
import { harHeaders, type Har, type HarEntry } from '../../contracts/shared/har.js';
import { createSimulator, type Simulator } from '../../src/simulator.js';

const encoder = new TextEncoder();

/**
 * A client's calls on an in-process simulator, written down as the recording proxy writes HAR
 * (secrets cut to their hints): a recording made in milliseconds, for scenes of many calls.
 */
export class InProcessRecording {
  readonly simulator: Simulator;
  readonly entries: HarEntry[] = [];

  constructor(options: { speed?: 'realistic' | 'fast'; seed?: string } = {}) {
    this.simulator = createSimulator({ frozenAt: Date.parse('2026-03-02T09:00:00Z'), speed: options.speed ?? 'realistic', onFault: () => {}, ...(options.seed ? { seed: options.seed } : {}) });
  }

  /** One call with `key` (none: no Authorization), recorded; answers the parsed JSON body, if any. */
  call(method: string, url: string, key: string | null = this.simulator.keys.readWrite, body?: unknown): any {
    const headers: Record<string, string> = { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) };
    const text = body === undefined ? undefined : JSON.stringify(body);
    const answer = this.simulator.handle({ method, url, headers, body: text === undefined ? undefined : encoder.encode(text) });
    const responseText = typeof answer.body === 'string' ? answer.body : '';
    const responseHeaders = answer.headers as Record<string, string>;
    this.entries.push({
      startedDateTime: new Date(this.simulator.clock.now()).toISOString(),
      time: 1,
      request: { method, url: `http://service.test${url}`, httpVersion: 'HTTP/1.1', cookies: [], headers: harHeaders(headers), queryString: [], headersSize: -1, bodySize: text?.length ?? 0, ...(text ? { postData: { mimeType: 'application/json', text: redactSecrets(text) } } : {}) },
      response: { status: answer.status, statusText: '', httpVersion: 'HTTP/1.1', cookies: [], headers: harHeaders(responseHeaders), content: { size: responseText.length, mimeType: String(responseHeaders['content-type'] ?? ''), text: redactSecrets(responseText) }, redirectURL: '', headersSize: -1, bodySize: responseText.length },
      cache: {},
      timings: { send: 0, wait: 1, receive: 0 },
    });
    try {
      return JSON.parse(responseText);
    } catch {
      return undefined;
    }
  }

  advance(ms: number): void {
    this.simulator.clock.advance(ms);
  }

  har(): Har {
    return { log: { version: '1.2', creator: { name: 'in-process recording', version: '1' }, pages: [], entries: this.entries } };
  }
}
