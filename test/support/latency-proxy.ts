import { createServer, request as httpRequest, type Server } from 'node:http';
import { listenOnLoopback, type RunningProxy } from './rewriting-proxy.js';

export interface Latency {
  /** The least delay each way, in ms. */
  minMs: number;
  /** The most delay each way, in ms. */
  maxMs: number;
  /** The seed of the jitter, so that a run's delays can be drawn again. */
  seed: number;
}

/**
 * A transparent loopback reverse proxy that changes nothing but time: each request waits a
 * jittered delay before it goes upstream, and each answer another before it comes back, so
 * concurrent calls reach the server and their answers reach the client in orders of their own.
 * A client that judges an answer by when it arrived, rather than by what the server could have
 * seen, fails behind it.
 */
export async function startLatencyProxy(target: string, latency: Latency): Promise<RunningProxy> {
  const upstream = new URL(target);
  const draw = jitter(latency);
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () =>
      setTimeout(() => {
        const forward = httpRequest({ hostname: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
          const body: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => body.push(chunk));
          answer.on('end', () =>
            setTimeout(() => {
              res.writeHead(answer.statusCode ?? 502, answer.headers);
              res.end(Buffer.concat(body));
            }, draw()),
          );
        });
        forward.on('error', () => {
          if (!res.headersSent) res.writeHead(502);
          res.end();
        });
        forward.end(Buffer.concat(chunks));
      }, draw()),
    );
  });
  return listenOnLoopback(server);
}

type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

/**
 * The same delays around a fetch that answers in this process: a request waits before it is
 * handed on and its answer (read whole) before it is returned, with no socket to pay for.
 */
export function withLatency(fetchImpl: Fetch, latency: Latency): Fetch {
  const draw = jitter(latency);
  const pause = () => new Promise((resolve) => setTimeout(resolve, draw()));
  return async (input, init) => {
    await pause();
    const response = await fetchImpl(input, init);
    const body = response.status === 204 || response.status === 304 ? null : await response.arrayBuffer();
    await pause();
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/** Delays drawn uniformly between the bounds from a seeded generator (mulberry32). */
function jitter({ minMs, maxMs, seed }: Latency): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    const unit = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    return minMs + unit * (maxMs - minMs);
  };
}
