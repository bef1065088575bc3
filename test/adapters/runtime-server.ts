/**
 * The app served by a Fetch runtime's own server (Bun.serve, Deno.serve): bundled by esbuild
 * and started by the test as `bun <bundle>` or `deno run -A <bundle>`, on the port it is given.
 * It prints one line, `{ listening, key }`, once it answers.
 */
import { createApp } from '../../src/app/create-app.js';
import { createSimulator } from '../../src/simulator.js';

interface BunServer {
  requestIP(request: Request): { address: string } | null;
}
declare const Bun: { serve(options: { hostname: string; port: number; fetch: (request: Request, server: BunServer) => Promise<Response> }): unknown } | undefined;
type DenoHandler = (request: Request, info: { remoteAddr: { hostname: string } }) => Promise<Response>;
declare const Deno: { args: string[]; serve(options: { hostname: string; port: number; onListen?: () => void }, handler: DenoHandler): unknown } | undefined;

const port = Number(typeof Deno !== 'undefined' ? Deno.args[0] : process.argv[2]);
const base = `http://127.0.0.1:${port}`;
const simulator = createSimulator({ frozenAt: Date.parse('2026-03-02T09:00:00.000Z'), publicUrl: base, onFault: () => {} });
const app = createApp(simulator);
const hello = () => console.log(JSON.stringify({ listening: base, key: simulator.keys.readWrite }));
if (typeof Bun !== 'undefined') {
  // The client's address goes with each request: the control API answers loopback clients only.
  Bun.serve({ hostname: '127.0.0.1', port, fetch: (request, server) => app.fetch(request, { remoteAddress: server.requestIP(request)?.address }) });
  hello();
} else if (typeof Deno !== 'undefined') {
  Deno.serve({ hostname: '127.0.0.1', port, onListen: hello }, (request, info) => app.fetch(request, { remoteAddress: info.remoteAddr.hostname }));
}
