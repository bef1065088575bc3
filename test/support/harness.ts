import supertest from 'supertest';
import { createExpressApp } from '../../src/adapters/express.js';
import { createSimulator, type Simulator, type SimulatorOptions } from '../../src/simulator.js';
import { assertContract } from './contract.js';

/** A fixed start so that timestamps, and so whole bodies, are reproducible. */
export const T0 = Date.parse('2026-03-02T09:00:00.000Z');

export interface CallOptions {
  key?: string | null;
  body?: unknown;
  /** A raw body sent as is (with its own content type, when given in headers). */
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
}

export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON when the response is JSON, else undefined. */
  body: any;
  text: string;
  /** The body's bytes as sent, for binary files (a WAV) that text would garble. */
  raw: Buffer;
}

export interface Harness {
  simulator: Simulator;
  keys: Simulator['keys'];
  call(method: string, url: string, options?: CallOptions): Promise<ApiResponse>;
  get(url: string, options?: CallOptions): Promise<ApiResponse>;
  post(url: string, body?: unknown, options?: CallOptions): Promise<ApiResponse>;
  advance(ms: number): void;
  /** Creates a target and returns its id. */
  target(key?: string, slug?: string): Promise<string>;
  /** Creates a build and returns its id. */
  build(fields: Record<string, unknown>, key?: string, idempotencyKey?: string): Promise<string>;
}

/**
 * A simulator behind the express adapter, driven over supertest, with a frozen clock.
 * Every response is validated against openapi.yaml before the test sees it.
 */
export function harness(options: SimulatorOptions = {}): Harness {
  const simulator = createSimulator({ frozenAt: T0, onFault: () => {}, ...options });
  const agent = supertest(createExpressApp(simulator));
  const keys = simulator.keys;
  let slugCount = 0;

  async function call(method: string, url: string, o: CallOptions = {}): Promise<ApiResponse> {
    let req = agent[method.toLowerCase() as 'get'](url).buffer(true).parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => done(null, Buffer.concat(chunks)));
    });
    const key = o.key === undefined ? keys.readWrite : o.key;
    if (key !== null) req = req.set('Authorization', `Bearer ${key}`);
    for (const [name, value] of Object.entries(o.headers ?? {})) req = req.set(name, value);
    if (o.rawBody !== undefined) req = req.send(o.rawBody);
    else if (o.body !== undefined) req = req.set('Content-Type', 'application/json').send(JSON.stringify(o.body));
    const res = await req;
    const raw = Buffer.isBuffer(res.body) ? res.body : Buffer.alloc(0);
    const text = raw.toString('utf8');
    const headers = res.headers as Record<string, string>;
    assertContract({ method, url, status: res.status, headers, body: text });
    const isJson = (headers['content-type'] ?? '').startsWith('application/json');
    return { status: res.status, headers, body: isJson ? JSON.parse(text) : undefined, text, raw };
  }

  const h: Harness = {
    simulator,
    keys,
    call,
    get: (url, o) => call('GET', url, o),
    post: (url, body, o) => call('POST', url, { ...o, body }),
    advance: (ms) => void simulator.clock.advance(ms),
    async target(key = keys.readWrite, slug = `brand-${++slugCount}`) {
      const res = await call('POST', '/api/v1/targets', {
        key,
        body: { name: `Brand ${slug}`, slug, description: 'Coffee gear for home baristas', brandKit: { voice: 'expert', tone: 'warm' } },
      });
      if (res.status !== 201) throw new Error(`target creation failed: ${res.status} ${res.text}`);
      return res.body.id as string;
    },
    async build(fields, key = keys.readWrite, idempotencyKey) {
      const res = await call('POST', '/api/v1/builds', {
        key,
        body: { buildType: 'single', kind: 'blog', objective: 'Explain how to dial in espresso at home', researchPolicy: 'required', ...fields },
        headers: idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {},
      });
      if (res.status !== 202) throw new Error(`build creation failed: ${res.status} ${res.text}`);
      return res.body.buildId as string;
    },
  };
  return h;
}
