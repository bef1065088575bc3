import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeHandler } from '../../src/adapters/node-handler.js';
import { createSimulator, type Simulator } from '../../src/simulator.js';
import { assertContract } from '../support/contract.js';

/**
 * A completed build's answer, once cached, is sent from the bytes it was encoded to once: what
 * node:http writes must be byte for byte what the first read wrote, and what in-process callers
 * and the journal read stays the text.
 */
describe("a completed build's cached answer over node:http", () => {
  let simulator: Simulator;
  let server: Server;
  let port: number;

  beforeAll(async () => {
    simulator = createSimulator({ seed: 'cached-answer-bytes', speed: 'instant', frozenAt: '2026-03-02T09:00:00Z' });
    server = createServer(createNodeHandler(simulator, { mcp: false }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const headers = () => ({ authorization: `Bearer ${simulator.keys.readWrite}`, 'content-type': 'application/json' });

  function get(path: string, method = 'GET'): Promise<{ status: number; length: string | undefined; bytes: Buffer }> {
    return new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path, method, headers: headers() }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const bytes = Buffer.concat(chunks);
          if (method === 'GET') assertContract({ method, url: path, status: res.statusCode!, headers: res.headers, body: bytes.toString('utf8') });
          resolve({ status: res.statusCode!, length: res.headers['content-length'], bytes });
        });
      });
      req.on('error', reject);
      req.end();
    });
  }

  it('sends the same bytes on every read, from the encoded copy once the answer is cached', async () => {
    const post = (url: string, body: unknown) => simulator.handle({ method: 'POST', url, headers: headers(), body: new TextEncoder().encode(JSON.stringify(body)) });
    const target = JSON.parse(post('/api/v1/targets', { name: 'Bytes', slug: 'bytes' }).body as string);
    // Non-ASCII text in the answer: bytes and characters differ in number, as Content-Length must not.
    const build = JSON.parse(post('/api/v1/builds', { targetId: target.id, kind: 'blog', objective: 'Crème brûlée — für alle' }).body as string);
    const path = `/api/v1/builds/${build.buildId as string}`;

    const first = await get(path);
    const again = [await get(path), await get(path), await get(path)];
    expect(first.status).toBe(200);
    for (const read of again) {
      expect(read.status).toBe(200);
      expect(read.bytes.equals(first.bytes)).toBe(true);
      expect(read.length).toBe(String(first.bytes.byteLength));
    }
    expect(first.bytes.byteLength).toBeGreaterThan(first.bytes.toString('utf8').length);

    // In-process the body is the text, with its encoding beside it once cached.
    const inProcess = simulator.handle({ method: 'GET', url: path, headers: headers() });
    expect(typeof inProcess.body).toBe('string');
    expect(inProcess.bodyBytes).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(inProcess.bodyBytes!).equals(Buffer.from(inProcess.body as string))).toBe(true);
    expect(Buffer.from(inProcess.body as string).equals(first.bytes)).toBe(true);

    // HEAD: the same length announced, no body.
    const head = await get(path, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.length).toBe(String(first.bytes.byteLength));
    expect(head.bytes.byteLength).toBe(0);

    // The journal keeps the answer's text.
    const [entry] = simulator.internal.journal.query({ limit: 1, operationId: 'getBuild' });
    expect(entry?.responseBody).toBe(first.bytes.toString('utf8'));
  });

  it('sends the body a wrapper put in place of the cached text, even one that kept the bytes beside it', async () => {
    const post = (url: string, body: unknown) => simulator.handle({ method: 'POST', url, headers: headers(), body: new TextEncoder().encode(JSON.stringify(body)) });
    const target = JSON.parse(post('/api/v1/targets', { name: 'Wrapped', slug: 'wrapped' }).body as string);
    const build = JSON.parse(post('/api/v1/builds', { targetId: target.id, kind: 'blog', objective: 'A wrapped answer' }).body as string);
    const path = `/api/v1/builds/${build.buildId as string}`;
    for (let i = 0; i < 2; i++) simulator.handle({ method: 'GET', url: path, headers: headers() });
    // Cached from here on: the answer carries its bytes.
    expect(simulator.handle({ method: 'GET', url: path, headers: headers() }).bodyBytes).toBeInstanceOf(Uint8Array);
    // A wrapper (a test's tampering, an embedding app) that answers another body by spreading the answer.
    const wrapped = { ...simulator, handle: (req: Parameters<Simulator['handle']>[0]) => {
      const answer = simulator.handle(req);
      return typeof answer.body === 'string' ? { ...answer, body: answer.body.replace('A wrapped answer', 'Another answer!!') } : answer;
    } } as Simulator;
    const other = createServer(createNodeHandler(wrapped, { mcp: false }));
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      const res = await fetch(`http://127.0.0.1:${(other.address() as AddressInfo).port}${path}`, { headers: headers() });
      const text = await res.text();
      assertContract({ method: 'GET', url: path, status: res.status, headers: Object.fromEntries(res.headers), body: text });
      expect(text).toContain('Another answer!!');
      expect(text).not.toContain('A wrapped answer');
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
  });
});
