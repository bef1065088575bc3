import type { Role } from './config.js';
import { ExerciseLog } from '../shared/exercise-log.js';
import { ContractFailure, SkipSignal } from '../shared/outcomes.js';
import { fillPath, USER_LIMIT, type OperationInfo } from '../shared/openapi-model.js';
import { RULES, type Exchange, type ResponseRules } from '../shared/response-rules.js';
import { headersOf, type FetchLike, type ServerTime } from '../shared/server-time.js';

export interface CallOptions {
  /** Whose key to send (default readWrite); null sends no Authorization header. */
  as?: Role | null;
  /** A raw Authorization header, instead of a role's key. */
  authorization?: string;
  query?: Record<string, string>;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as is, with `contentType`: text, or bytes (a megabyte is written faster as bytes than as a string). */
  rawBody?: string | Uint8Array<ArrayBuffer>;
  contentType?: string;
  headers?: Record<string, string>;
  /** The call may hit a rate limit on purpose: no pacing before it, no retry after a 429. */
  provoke429?: boolean;
}

export interface Reply {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** The body as received, for binary files (a WAV's header). */
  bytes: Uint8Array;
  /** The parsed body when it is JSON. */
  json: any;
  operation: OperationInfo | undefined;
}

interface Window {
  remaining: number;
  reset: number;
}

const MAX_RETRIES_AFTER_429 = 3;

/**
 * Every request of the suite: counted against the request budget, paced so that it does not
 * run into a rate limit it did not mean to (it waits for the window's reset, and honours
 * Retry-After on an unexpected 429), and checked against the rules every response obeys.
 */
export class ServiceClient {
  requests = 0;
  /** operationId → statuses seen, for the coverage report. */
  readonly seen = new Map<string, Set<number>>();
  /** What the run exercised: operations, statuses, parameters, error codes (the coverage report). */
  readonly exercised = new ExerciseLog();
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly options: {
      baseUrl: string;
      fetch: FetchLike;
      keys: Partial<Record<Role, string>>;
      operations: OperationInfo[];
      rules: ResponseRules;
      time: ServerTime;
      requestBudget: number;
    },
  ) {}

  get remainingBudget(): number {
    return this.options.requestBudget - this.requests;
  }

  operation(id: string): OperationInfo {
    const op = this.options.operations.find((o) => o.id === id);
    if (!op) throw new SkipSignal(`openapi.yaml has no operation ${id}`);
    return op;
  }

  /** A request outside openapi.yaml (the MCP endpoint): counted against the budget, held to no REST rule. */
  async raw(path: string, init: RequestInit, key?: string): Promise<Response> {
    if (this.requests >= this.options.requestBudget) throw new SkipSignal(`the request budget (${this.options.requestBudget}) is spent`);
    this.requests++;
    const response = await this.options.fetch(`${this.options.baseUrl}${path}`, init);
    if (key) this.options.rules.forget(key); // its rate-limit windows moved where the REST rules do not look
    if (path === '/mcp') this.trackMcpSession(init, response);
    return response;
  }

  /** The MCP sessions the run opened and has not ended: session id → the Authorization it was opened with. */
  private readonly mcpSessions = new Map<string, string | undefined>();

  private trackMcpSession(init: RequestInit, response: Response): void {
    const sent = new Headers(init.headers);
    const id = response.headers.get('mcp-session-id');
    if (init.method === 'POST' && id && response.ok && !sent.has('mcp-session-id')) this.mcpSessions.set(id, sent.get('authorization') ?? undefined);
    const ended = sent.get('mcp-session-id');
    if (init.method === 'DELETE' && ended && (response.ok || response.status === 404)) this.mcpSessions.delete(ended);
  }

  /**
   * Ends every MCP session the run left open (DELETE /mcp), outside the request budget, so a
   * server shared by many runs keeps none of them. One whose credential was revoked since is
   * refused its DELETE and left to the server, which lets such sessions go first.
   */
  async endMcpSessions(): Promise<void> {
    for (const [id, authorization] of this.mcpSessions) {
      const headers: Record<string, string> = { 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25', ...(authorization ? { authorization } : {}) };
      await this.options.fetch(`${this.options.baseUrl}/mcp`, { method: 'DELETE', headers }).then((r) => r.arrayBuffer(), () => undefined);
    }
    this.mcpSessions.clear();
  }

  /** Calls an operation by its id, with its path parameters. */
  op(id: string, pathValues: Record<string, string> = {}, options: CallOptions = {}): Promise<Reply> {
    const op = this.operation(id);
    return this.call(op.method, fillPath(op, pathValues), options, op);
  }

  async call(method: string, path: string, options: CallOptions = {}, known?: OperationInfo): Promise<Reply> {
    const op = known ?? this.match(method, path);
    const key = this.keyFor(options);
    const url = options.query && Object.keys(options.query).length ? `${path}?${new URLSearchParams(options.query)}` : path;
    for (let attempt = 0; ; attempt++) {
      if (!options.provoke429) await this.pace(key, op);
      const reply = await this.send(method, url, options, key, op);
      if (reply.status !== 429 || options.provoke429 || attempt >= MAX_RETRIES_AFTER_429) return reply;
      // Limits: "back off and retry". Retry-After if given, else until the window resets.
      const retryAfter = Number(reply.headers['retry-after']);
      const reset = Number(reply.headers['x-ratelimit-reset']);
      const waitMs = Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : Number.isFinite(reset) ? reset * 1000 - this.options.time.now() : 1000 * 2 ** attempt;
      await this.options.time.sleep(Math.max(waitMs, 1));
    }
  }

  /** Waits for the next window when the last response said this key (or its user) has no request left. */
  async pace(key: string | undefined, op: OperationInfo | undefined): Promise<void> {
    if (!key || !op) return;
    for (const name of [`${key}|${op.rateClass}`, `user|${key}`]) {
      const window = this.windows.get(name);
      if (window && window.remaining <= 0 && window.reset * 1000 > this.options.time.now()) await this.options.time.until(window.reset);
    }
  }

  /** Waits for a new window unless the current one still has `needed` requests for this key and route class. */
  async ensureWindow(role: Role, operationId: string, needed: number): Promise<void> {
    const key = this.options.keys[role];
    const op = this.operation(operationId);
    for (const name of [`${key}|${op.rateClass}`, `user|${key}`]) {
      const window = this.windows.get(name);
      if (window && window.remaining < needed && window.reset * 1000 > this.options.time.now()) await this.options.time.until(window.reset);
    }
  }

  /** Waits for the next window to start, so that no request of any key counts in it yet (found by one probe call). */
  async freshWindow(): Promise<void> {
    const probe = await this.op('getTokenBalance');
    const reset = Number(probe.headers['x-ratelimit-reset']);
    if (Number.isFinite(reset)) await this.options.time.until(reset);
  }

  private async send(method: string, url: string, options: CallOptions, key: string | undefined, op: OperationInfo | undefined): Promise<Reply> {
    if (this.requests >= this.options.requestBudget) throw new SkipSignal(`the request budget (${this.options.requestBudget}) is spent`);
    this.requests++;
    const headers: Record<string, string> = { accept: '*/*', ...options.headers };
    if (options.authorization !== undefined) headers.authorization = options.authorization;
    else if (key) headers.authorization = `Bearer ${key}`;
    let body: string | Uint8Array<ArrayBuffer> | undefined;
    if (options.rawBody !== undefined) {
      body = options.rawBody;
      if (options.contentType) headers['content-type'] = options.contentType;
    } else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    let response: Response;
    let bytes: Uint8Array;
    const sentAt = this.options.time.now();
    try {
      response = await this.options.fetch(`${this.options.baseUrl}${url}`, { method, headers, body });
      bytes = new Uint8Array(await response.arrayBuffer());
    } catch (e) {
      throw new ContractFailure(`${RULES.answers}\n    ${method} ${url}: ${String((e as Error).cause ?? (e as Error).message)}`);
    }
    const text = new TextDecoder().decode(bytes);
    const responseHeaders = headersOf(response);
    this.options.time.observe(responseHeaders);
    const exchange: Exchange = { method, url, status: response.status, headers: responseHeaders, text, operation: op, key, sentAt };
    if (op) {
      const statuses = this.seen.get(op.id) ?? new Set<number>();
      statuses.add(response.status);
      this.seen.set(op.id, statuses);
    }
    const requestHeaders = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
    this.exercised.record({ operation: op, url, requestHeaders, requestBody: typeof body === 'string' ? body : undefined, status: response.status, responseBody: text, responseContentType: responseHeaders['content-type'] });
    this.remember(exchange);
    const failures = this.options.rules.inspect(exchange);
    if (failures.length) throw new ContractFailure(failures.join('\n'));
    let json: any;
    if ((responseHeaders['content-type'] ?? '').includes('json')) {
      try {
        json = JSON.parse(text);
      } catch {
        throw new ContractFailure(`${RULES.jsonBody}\n    ${method} ${url} → ${response.status}: ${JSON.stringify(text.slice(0, 120))}`);
      }
    }
    return { status: response.status, headers: responseHeaders, text, bytes, json, operation: op };
  }

  private remember(x: Exchange): void {
    if (!x.key || !x.operation) return;
    const remaining = Number(x.headers['x-ratelimit-remaining']);
    const reset = Number(x.headers['x-ratelimit-reset']);
    const limit = Number(x.headers['x-ratelimit-limit']);
    if (!Number.isFinite(remaining) || !Number.isFinite(reset)) return;
    const window = { remaining: x.status === 429 ? 0 : remaining, reset };
    if (limit !== USER_LIMIT) return void this.windows.set(`${x.key}|${x.operation.rateClass}`, window);
    // The user's window binds every key of the user (the empty-balance key belongs to another user).
    const { empty, ...sameUser } = this.options.keys;
    const group = x.key === empty ? [x.key] : Object.values(sameUser);
    for (const key of group) if (key) this.windows.set(`user|${key}`, window);
  }

  private keyFor(options: CallOptions): string | undefined {
    if (options.authorization !== undefined || options.as === null) return options.authorization?.replace(/^Bearer\s+/i, '') || undefined;
    const role = options.as ?? 'readWrite';
    const key = this.options.keys[role];
    if (!key) throw new SkipSignal(`no credential for the role ${role}`);
    return key;
  }

  private match(method: string, path: string): OperationInfo | undefined {
    const parts = path.split('?')[0]!.split('/');
    const candidates = this.options.operations.filter((o) => {
      const segments = o.path.split('/');
      return o.method === method && segments.length === parts.length && segments.every((s, i) => s.startsWith('{') || s === parts[i]);
    });
    return candidates.sort((a, b) => staticSegments(b) - staticSegments(a))[0];
  }
}

function staticSegments(op: OperationInfo): number {
  return op.path.split('/').filter((s) => s && !s.startsWith('{')).length;
}
