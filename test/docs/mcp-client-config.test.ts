import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeHandler } from '../../src/adapters/node-handler.js';
import { createMcpEndpoint, type McpEndpoint } from '../../src/mcp/mcp-endpoint.js';
import { createSimulator } from '../../src/simulator.js';

/**
 * The MCP guide's client configurations: VS Code reads `"servers"`, Cursor and Claude Code
 * read `"mcpServers"`. Each entry, as written, connects (its URL's path on a served simulator).
 */
const guide = readFileSync(new URL('../../docs/guides/mcp-and-oauth.md', import.meta.url), 'utf8');
const section = guide.slice(guide.indexOf('### Connecting an assistant'), guide.indexOf('### What a tool call does'));
const configs = [...section.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => JSON.parse(m[1]!) as Record<string, Record<string, { type: string; url: string; headers: Record<string, string> }>>);

let server: Server;
let endpoint: McpEndpoint;
let base: string;
beforeAll(async () => {
  const simulator = createSimulator({ onFault: () => {} });
  endpoint = createMcpEndpoint(simulator);
  server = createServer(createNodeHandler(simulator, { mcp: endpoint }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await endpoint.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe("the MCP guide's client configurations", () => {
  it('gives VS Code "servers" and Cursor and Claude Code "mcpServers", each saying which reads which', () => {
    expect(configs.map((c) => Object.keys(c))).toEqual([['servers'], ['mcpServers']]);
    const [beforeServers] = section.split('```json');
    expect(beforeServers).toMatch(/VS Code reads\s+`\.vscode\/mcp\.json`, whose servers sit under `"servers"`/);
    expect(beforeServers).not.toMatch(/Cursor|Claude/);
    expect(section).toMatch(/Cursor \(`\.cursor\/mcp\.json`\) and Claude Code \(`\.mcp\.json` at the project root\) read the same\s+entry under `"mcpServers"`/);
  });

  it.each([0, 1])('connects with entry %i as written (type, URL path, headers)', async (index) => {
    const entry = Object.values(configs[index]!)[0]!['content-service']!;
    expect(entry.type).toBe('http');
    const client = new Client({ name: 'readme', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(new URL(entry.url).pathname, base), { requestInit: { headers: entry.headers } }));
    const balance = await client.callTool({ name: 'getTokenBalance', arguments: {} });
    expect(balance.structuredContent).toMatchObject({ balance: 100 });
    await client.close();
  });

  it('gives Claude Code the same URL and header on its command line', () => {
    const entry = configs[1]!.mcpServers!['content-service']!;
    expect(section).toContain(`claude mcp add --transport http content-service ${entry.url}`);
    expect(section).toContain(`--header "Authorization: ${entry.headers.Authorization}"`);
  });
});
