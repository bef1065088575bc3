/**
 * The MCP floor: the SDK's own stateless handler (`createMcpHandler`, a fresh server per
 * request as the SDK documents it) with one trivial tool, `getBuild`, answering the same build
 * JSON from memory, as text and as structured content like the simulator's tool. Behind
 * node:http through the leanest bridge there is: the body read whole, one Fetch `Request`
 * built from it, the `Response` written back in one piece. A trivial bearer check (one string
 * comparison) stands for authentication.
 *
 * BENCH_SDK_TOOL picks how the tool is declared (bench/mcp.bench.ts runs `plain` and `server`):
 *   server (default)  the low-level `Server` with a `tools/call` handler: the least any server on the SDK pays;
 *   plain             `McpServer.registerTool` without schemas;
 *   zod               `McpServer.registerTool` with a zod input schema `{ buildId: string }`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMcpHandler, McpServer, Server } from '@modelcontextprotocol/server';
import * as z from 'zod';

const [key, bodyText] = [process.env.BENCH_KEY!, process.env.BENCH_BODY!];
const VARIANT = process.env.BENCH_SDK_TOOL ?? 'server';
const structuredContent = JSON.parse(bodyText) as Record<string, unknown>;
const answer = () => ({ content: [{ type: 'text' as const, text: bodyText }], structuredContent });

const handler = createMcpHandler(
  () => {
    if (VARIANT === 'server') {
      const server = new Server({ name: 'sdk-floor', version: '1.0.0' }, { capabilities: { tools: {} } });
      server.setRequestHandler('tools/list', () => ({ tools: [{ name: 'getBuild', inputSchema: { type: 'object' as const } }] }));
      server.setRequestHandler('tools/call', answer);
      return server;
    }
    const server = new McpServer({ name: 'sdk-floor', version: '1.0.0' });
    const inputSchema = VARIANT === 'zod' ? { inputSchema: z.object({ buildId: z.string() }) } : {};
    server.registerTool('getBuild', { description: 'A build, from memory.', ...inputSchema }, answer);
    return server;
  },
  { legacy: 'reject' },
);

const server = createServer((req, res) => {
  if (req.headers.authorization !== `Bearer ${key}`) return void res.writeHead(401).end();
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', async () => {
    const headers = new Headers();
    for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    const request = new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers, ...(hasBody ? { body: Buffer.concat(chunks) } : {}) });
    const response = await handler.fetch(request);
    const answerBytes = Buffer.from(await response.arrayBuffer());
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(answerBytes);
  });
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port, variant: VARIANT })}\n`);
});
// A clean exit on SIGINT, so that --cpu-prof can write its profile.
process.on('SIGINT', () => process.exit(0));
