import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

/** What a client of the service does in a typical session, and the errors it meets: the recording the drift tests replay. */
export interface FlowOptions {
  /** Where the client sends its calls (a recording proxy in front of the simulator). */
  serviceUrl: string;
  /** The simulator itself, for its control API (kept out of the recording). */
  simulatorUrl: string;
  /** Exhaust the build-creation limit (a 429): only a target whose clock the replay moves can meet it where the recording did. */
  exhaust?: boolean;
}

async function control(base: string, path: string, body: unknown): Promise<any> {
  const res = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (res.status >= 300) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

/**
 * The spec's typical flow and the answers a client must handle: balance, a target, an idempotent
 * build polled every 15 s (the simulator's realistic pipeline: every stage lasts longer) to its
 * end, the deliverable and its downloads, a 402, a scope error, a 429, an MCP tool call, a 404.
 */
export async function driveFlow(options: FlowOptions): Promise<{ calls: number; accountId: string; keys: Record<string, string>; secrets: string[] }> {
  const account = await control(options.simulatorUrl, '/_sim/accounts', { name: 'Recorded client', balance: 3, clock: { own: true } });
  await control(options.simulatorUrl, `/_sim/accounts/${account.accountId}/clock/freeze`, {});
  const keys = account.keys as Record<'readWrite' | 'readOnly', string>;
  let calls = 0;
  const call = async (method: string, path: string, key: string, body?: unknown, headers: Record<string, string> = {}) => {
    calls++;
    const res = await fetch(`${options.serviceUrl}${path}`, {
      method,
      headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, json: text.startsWith('{') ? JSON.parse(text) : undefined };
  };
  const advance = (ms: number) => control(options.simulatorUrl, `/_sim/accounts/${account.accountId}/clock/advance`, { ms });

  await call('GET', '/api/v1/tokens/balance', keys.readWrite);
  const target = await call('POST', '/api/v1/targets', keys.readWrite, { name: 'Acme Coffee', slug: 'acme-coffee', description: 'Roaster', brandKit: { voice: 'expert', tone: 'warm' } });
  const brief = { targetId: target.json.id, buildType: 'single', kind: 'blog', objective: 'Cold brew at home', researchPolicy: 'required' };
  const created = await call('POST', '/api/v1/builds', keys.readWrite, brief, { 'idempotency-key': 'flow-2026-11-26-1' });
  await call('POST', '/api/v1/builds', keys.readWrite, brief, { 'idempotency-key': 'flow-2026-11-26-1' });
  let build = await call('GET', `/api/v1/builds/${created.json.buildId}`, keys.readWrite);
  for (let i = 0; i < 100 && !['completed', 'failed'].includes(build.json.build.status); i++) {
    await advance(15_000);
    build = await call('GET', `/api/v1/builds/${created.json.buildId}`, keys.readWrite);
  }
  const deliverableId = build.json.deliverables[0].id;
  await call('GET', `/api/v1/deliverables/${deliverableId}`, keys.readWrite);
  await call('GET', `/api/v1/deliverables/${deliverableId}/download?format=md`, keys.readWrite, undefined, { accept: 'text/markdown' });
  await call('GET', `/api/v1/deliverables/${deliverableId}/download?format=html`, keys.readWrite, undefined, { accept: 'text/html' });
  // Secrets made during the session, used later: a share link read without a key, a key made and then used.
  const share = await call('POST', `/api/v1/deliverables/${deliverableId}/shares`, keys.readWrite, {});
  await call('GET', new URL(share.json.url, options.serviceUrl).pathname, '');
  const made = await call('POST', '/api/v1/keys', keys.readWrite, { name: 'ci reader', scopes: ['svc:read'] });
  await call('GET', '/api/v1/tokens/balance', made.json.value);
  await call('POST', '/api/v1/builds', keys.readWrite, { ...brief, buildType: 'suite', kind: 'doc', pages: 10 }, { 'idempotency-key': 'flow-2026-11-26-2' }); // 402
  await call('POST', '/api/v1/targets', keys.readOnly, { name: 'Read only', slug: 'read-only', description: 'x', brandKit: { voice: 'plain', tone: 'calm' } }); // 403
  for (let i = 0; options.exhaust !== false && i < 15; i++) {
    const again = await call('POST', '/api/v1/builds', keys.readWrite, brief, { 'idempotency-key': 'flow-2026-11-26-1' });
    if (again.status === 429) break;
  }
  await call('GET', '/api/v1/builds/00000000-0000-4000-8000-00000000beef', keys.readWrite); // 404
  const client = new Client({ name: 'recorded-client', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${options.serviceUrl}/mcp`), { requestInit: { headers: { authorization: `Bearer ${keys.readWrite}` } } }));
  await client.callTool({ name: 'getTokenBalance', arguments: {} });
  await client.callTool({ name: 'getBuild', arguments: { buildId: created.json.buildId } });
  await client.close();
  await call('GET', '/api/v1/tokens/balance', keys.readWrite);
  return { calls, accountId: account.accountId, keys: account.keys, secrets: [made.json.value, share.json.token] };
}
