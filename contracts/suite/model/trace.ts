/**
 * What a sequence sent, in order, kept so that a failing sequence can be printed as a Node
 * script anyone can run against the same base URL: every id and key the server handed out
 * becomes a variable read from the answer that gave it, so the script works on a fresh run.
 */
export type TraceEntry =
  | { kind: 'step'; text: string }
  | { kind: 'account'; variable: string; body: unknown }
  | { kind: 'rest'; variable: string; method: string; path: string; key?: string; headers?: Record<string, string>; body?: unknown; status: number }
  | { kind: 'mcp'; variable: string; key: string; tool: string; args: Record<string, unknown>; outcome: string }
  | { kind: 'advance'; accounts: string[]; ms: number }
  | { kind: 'parallel'; entries: TraceEntry[] };

export class Trace {
  readonly entries: TraceEntry[] = [];
  /** A value the server gave (an id, a key) → the expression that reads it in the script. */
  private readonly names = new Map<string, string>();
  private calls = 0;
  private sink: TraceEntry[] = this.entries;

  step(text: string): void {
    this.entries.push({ kind: 'step', text });
  }

  nextVariable(): string {
    return `r${++this.calls}`;
  }

  add(entry: TraceEntry): void {
    this.sink.push(entry);
  }

  /** Calls sent together: recorded as one Promise.all. */
  async parallel<T>(run: () => Promise<T>): Promise<T> {
    const group: TraceEntry[] = [];
    const outer = this.sink;
    this.sink = group;
    try {
      return await run();
    } finally {
      this.sink = outer;
      outer.push({ kind: 'parallel', entries: group });
    }
  }

  /** From now on, `value` is written as `expression` (e.g. `r3.buildId`). */
  bind(value: string | undefined, expression: string): void {
    if (typeof value === 'string' && value.length >= 8 && !this.names.has(value)) this.names.set(value, expression);
  }

  get length(): number {
    return this.entries.filter((e) => e.kind !== 'step').length;
  }

  /** The sequence as a runnable ES module (Node 20+: `node repro.mjs`). */
  script(header: string[], expectation: string): string {
    const lines = [
      ...header.map((h) => `// ${h}`),
      `const BASE = process.env.BASE_URL ?? 'http://127.0.0.1:4010';`,
      `const CONTROL = process.env.CONTRACT_CONTROL_TOKEN ? { 'x-control-token': process.env.CONTRACT_CONTROL_TOKEN } : {};`,
      `async function call(method, path, headers, body) {`,
      `  const init = { method, headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) };`,
      `  const res = await fetch(BASE + path, init);`,
      `  const text = await res.text();`,
      `  console.log(method, path, '→', res.status, text.slice(0, 300));`,
      `  try { return Object.assign(JSON.parse(text), { $status: res.status }); } catch { return { $status: res.status, $text: text }; }`,
      `}`,
      `const sessions = new Map();`,
      `async function mcp(key, name, args) {`,
      `  const headers = { authorization: 'Bearer ' + key, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };`,
      `  const post = (body, extra = {}) => fetch(BASE + '/mcp', { method: 'POST', headers: { ...headers, ...extra }, body: JSON.stringify(body) });`,
      `  if (!sessions.has(key)) {`,
      `    const init = await post({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'repro', version: '1' } } });`,
      `    const sid = init.headers.get('mcp-session-id'); await init.text();`,
      `    const extra = sid ? { 'mcp-session-id': sid } : {};`,
      `    await (await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, extra)).text();`,
      `    sessions.set(key, extra);`,
      `  }`,
      `  const text = await (await post({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }, sessions.get(key))).text();`,
      `  const data = text.split('\\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5)).pop() ?? text;`,
      `  const result = JSON.parse(data).result;`,
      `  console.log('MCP', name, '→', JSON.stringify(result).slice(0, 300));`,
      `  return result.isError ? JSON.parse(result.content[0].text) : result.structuredContent;`,
      `}`,
      '',
    ];
    for (const entry of this.entries) lines.push(...this.render(entry, ''));
    lines.push(`// ${expectation.split('\n').join('\n// ')}`);
    lines.push(`console.log(${JSON.stringify(`\nThe model-based phase expected otherwise at the last call: ${expectation.split('\n').slice(0, 2).join('\n')}`)});`);
    return lines.join('\n');
  }

  private render(entry: TraceEntry, indent: string): string[] {
    switch (entry.kind) {
      case 'step':
        return [`${indent}// ${entry.text}`];
      case 'account':
        return [`${indent}const ${entry.variable} = await call('POST', '/_sim/accounts', CONTROL, ${this.value(entry.body)});`];
      case 'advance':
        return entry.accounts.map((a) => `${indent}await call('POST', \`/_sim/accounts/\${${a}.accountId}/clock/advance\`, CONTROL, { ms: ${entry.ms} });`);
      case 'rest': {
        const headers: string[] = [];
        if (entry.key) headers.push(`authorization: 'Bearer ' + ${this.value(entry.key)}`);
        for (const [name, value] of Object.entries(entry.headers ?? {})) headers.push(`${JSON.stringify(name)}: ${this.value(value)}`);
        const args = [JSON.stringify(entry.method), this.text(entry.path), `{ ${headers.join(', ')} }`];
        if (entry.body !== undefined) args.push(this.value(entry.body));
        return [`${indent}const ${entry.variable} = await call(${args.join(', ')}); // got ${entry.status}`];
      }
      case 'mcp':
        return [`${indent}const ${entry.variable} = await mcp(${this.value(entry.key)}, ${JSON.stringify(entry.tool)}, ${this.value(entry.args)}); // got ${entry.outcome}`];
      case 'parallel': {
        const calls = entry.entries.flatMap((e) => this.render(e, '')).map((line) => line.replace(/^const (\w+) = await /, '').replace(/; \/\/ got (.*)$/, ', // got $1'));
        const names = entry.entries.map((e) => ('variable' in e ? e.variable : '_'));
        return [`${indent}const [${names.join(', ')}] = await Promise.all([`, ...calls.map((c) => `${indent}  ${c}`), `${indent}]);`];
      }
    }
  }

  /** A JS literal of a JSON value, with the values the server gave written as their variables. */
  private value(v: unknown): string {
    if (typeof v === 'string') return this.names.get(v) ?? (this.containsName(v) ? this.text(v) : JSON.stringify(v));
    if (Array.isArray(v)) return `[${v.map((x) => this.value(x)).join(', ')}]`;
    if (v && typeof v === 'object') return `{ ${Object.entries(v).map(([k, x]) => `${/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k)}: ${this.value(x)}`).join(', ')} }`;
    return JSON.stringify(v);
  }

  private containsName(s: string): boolean {
    for (const value of this.names.keys()) if (s.includes(value)) return true;
    return false;
  }

  /** A template literal of a string in which the values the server gave are interpolated. */
  private text(s: string): string {
    let out = s.replace(/[`\\$]/g, (c) => `\\${c}`);
    for (const [value, expression] of this.names) out = out.split(value).join(`\${${expression}}`);
    return `\`${out}\``;
  }
}
