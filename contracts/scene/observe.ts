import { header, type Har, type HarEntry } from '../shared/har.js';
import { recordedTime, servicePath } from '../drift/index.js';
import { classify, type Seen, type SeenKind } from './shapes.js';

/** One credential of the recording: its Authorization value as recorded (a hint, or whole in a browser's export). */
export interface SeenCredential {
  value: string;
  /** `svc_live_…abcd` for an API key (whole or cut), else the value itself: how key lists and answers name it. */
  hint: string;
  /** Calls (1 = the recording's first entry) made with it. */
  calls: number[];
  readDenied: boolean;
  writeDenied: boolean;
  authenticated: boolean;
  refused: boolean;
  /** Its last answer, with the bucket a 429 named. */
  last: { call: number; status: number; code?: string; bucket?: string; retryAfter?: number; at: number };
}

/** What the recording showed of one account: its credentials, the objects they saw (last state of each), its clock. */
export interface SeenAccount {
  credentials: SeenCredential[];
  objects: Seen[];
  /** The last balance answer, and when it came. */
  balance?: { balance: number; lifetimePurchased?: number; lifetimeUsed?: number; call: number; at: number };
  purchases: Array<{ bundle: string; tokens: number; call: number; at: number }>;
  /** The service's time of the account's last exchange. */
  lastAt: number;
  /** MCP tool calls and OAuth-authenticated calls seen (read for linking only). */
  mcpCalls: number;
  /** Objects the recording deleted (by kind), and revoked shares. */
  deleted: Array<{ kind: SeenKind; id: string; call: number }>;
}

export interface Observation {
  accounts: SeenAccount[];
  /** Entries that are no call of the service API (control API, OAuth pages, …), by reason. */
  ignored: Record<string, number>;
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const DELETES: Array<[RegExp, SeenKind]> = [
  [/^\/api\/v1\/targets\/([^/]+)$/, 'target'],
  [/^\/api\/v1\/targets\/[^/]+\/library\/([^/]+)$/, 'library'],
  [/^\/api\/v1\/shares\/([^/]+)$/, 'share'],
];

export function hintOf(credential: string): string {
  const value = credential.replace(/^\S+\s+/, '');
  if (value.startsWith('svc_live_') && !value.includes('…')) return `svc_live_…${value.slice(-4)}`;
  return value;
}

/** Parses a recorded body as JSON: a document, or an MCP answer's tool result (its structuredContent). */
export function jsonOf(text: string | undefined, mimeType = ''): unknown {
  if (!text) return undefined;
  try {
    if (/event-stream/.test(mimeType)) {
      const data = text.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim());
      const last = data.filter((d) => d.startsWith('{')).pop();
      return last ? (JSON.parse(last) as { result?: { structuredContent?: unknown } }).result?.structuredContent : undefined;
    }
    const json = JSON.parse(text) as { jsonrpc?: unknown; result?: { structuredContent?: unknown } };
    return json && json.jsonrpc ? json.result?.structuredContent : json;
  } catch {
    return undefined;
  }
}

export function responseText(e: HarEntry): string | undefined {
  const c = e.response.content;
  if (c.encoding === 'base64') return /json|event-stream/.test(c.mimeType ?? '') && c.text ? Buffer.from(c.text, 'base64').toString('utf8') : undefined;
  return c.text;
}

class Links {
  private readonly parent = new Map<string, string>();
  find(x: string): string {
    let root = this.parent.get(x) ?? x;
    while (root !== (this.parent.get(root) ?? root)) root = this.parent.get(root) as string;
    this.parent.set(x, root);
    return root;
  }
  join(a: string, b: string): void {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra !== rb) this.parent.set(rb, ra);
  }
}

/**
 * Reads a recording for the state it shows, account by account. Credentials are one account's
 * when their answers show it: an id one credential saw that another saw too, a key made with
 * one (its value) that another is, a key list naming another's hint. Each object keeps the last
 * state an answer showed of it.
 */
export function observe(har: Har): Observation {
  const links = new Links();
  const credentials = new Map<string, SeenCredential>();
  const objects = new Map<string, Seen & { owner: string }>();
  const idOwner = new Map<string, string>();
  const hintToCredential = new Map<string, string>();
  const balances: Array<{ owner: string; value: NonNullable<SeenAccount['balance']> }> = [];
  const purchases: Array<{ owner: string; value: SeenAccount['purchases'][number] }> = [];
  const deleted: Array<{ owner: string; value: SeenAccount['deleted'][number] }> = [];
  const mcp = new Map<string, number>();
  const pendingHints: Array<[string, string]> = [];
  const ignored: Record<string, number> = {};

  har.log.entries.forEach((e, index) => {
    const call = index + 1;
    const path = servicePath(e.request.url);
    if (path === undefined || e._injected !== undefined) {
      const why = path === undefined ? 'not a call of the service API' : 'a fault the simulator injected (_injected)';
      ignored[why] = (ignored[why] ?? 0) + 1;
      return;
    }
    const auth = header(e.request.headers, 'authorization');
    if (!auth) return; // a share link read without a key: no account's evidence
    const at = recordedTime(e);
    let cred = credentials.get(auth);
    if (!cred) {
      cred = { value: auth, hint: hintOf(auth), calls: [], readDenied: false, writeDenied: false, authenticated: false, refused: false, last: { call, status: 0, at } };
      credentials.set(auth, cred);
      if (!hintToCredential.has(cred.hint)) hintToCredential.set(cred.hint, auth);
      else links.join(hintToCredential.get(cred.hint) as string, auth);
    }
    cred.calls.push(call);
    const status = e.response.status;
    const json = jsonOf(responseText(e), e.response.content.mimeType);
    const method = e.request.method.toUpperCase();
    const bare = path.split('?')[0] as string;
    const code = (json as { code?: unknown } | undefined)?.code;
    const details = (json as { details?: { bucket?: unknown; retryAfterSeconds?: unknown } } | undefined)?.details;
    cred.last = { call, status, at, ...(typeof code === 'string' ? { code } : {}), ...(typeof details?.bucket === 'string' ? { bucket: details.bucket } : {}), ...(typeof details?.retryAfterSeconds === 'number' ? { retryAfter: details.retryAfterSeconds } : {}) };
    if (status === 401) cred.refused = true;
    else if (status === 403 && code === 'SCOPE_REQUIRED') (method === 'GET' ? (cred.readDenied = true) : (cred.writeDenied = true));
    else if (status < 500 && status !== 429) cred.authenticated = true;
    if (bare === '/mcp') {
      mcp.set(auth, (mcp.get(auth) ?? 0) + 1);
      if (!/"method"\s*:\s*"tools\/call"/.test(e.request.postData?.text ?? '')) return;
    }
    if (status >= 300) return;

    // Every id the call named or was answered is this credential's account's.
    for (const id of `${bare} ${responseText(e) ?? ''}`.match(UUID) ?? []) {
      const owner = idOwner.get(id.toLowerCase());
      if (owner) links.join(owner, auth);
      else idOwner.set(id.toLowerCase(), auth);
    }
    if (method === 'DELETE') {
      for (const [re, kind] of DELETES) {
        const m = re.exec(bare);
        if (m) deleted.push({ owner: auth, value: { kind, id: m[1] as string, call } });
      }
    }
    const request = method === 'POST' && bare === '/api/v1/builds' ? jsonOf(e.request.postData?.text) : undefined;
    for (const seen of classify(json, { call, at, method, path: bare, request })) {
      const before = objects.get(seen.id);
      objects.set(seen.id, { ...seen, fields: { ...(before?.fields ?? {}), ...seen.fields }, request: seen.request ?? before?.request, firstCall: before?.firstCall ?? call, owner: before?.owner ?? auth });
      if (seen.kind === 'key' && typeof seen.fields.hint === 'string') pendingHints.push([seen.fields.hint, auth]);
      if (seen.kind === 'key' && typeof seen.fields.value === 'string') pendingHints.push([hintOf(seen.fields.value), auth]);
      if (seen.kind === 'balance') balances.push({ owner: auth, value: { ...(seen.fields as { balance: number }), call, at } });
    }
    if (method === 'POST' && bare === '/api/v1/tokens/purchases' && status === 201) {
      const bundle = (json as { bundle?: { id?: unknown; tokens?: unknown } } | undefined)?.bundle;
      if (typeof bundle?.id === 'string') purchases.push({ owner: auth, value: { bundle: bundle.id, tokens: Number(bundle.tokens) || 0, call, at } });
    }
  });
  // A key list or a made key names a hint: the credential with that hint is the same account's.
  for (const [hint, owner] of pendingHints) {
    const other = hintToCredential.get(hint);
    if (other) links.join(owner, other);
  }

  const accounts = new Map<string, SeenAccount>();
  const accountOf = (cred: string): SeenAccount => {
    const root = links.find(cred);
    let a = accounts.get(root);
    if (!a) accounts.set(root, (a = { credentials: [], objects: [], purchases: [], lastAt: Number.NEGATIVE_INFINITY, mcpCalls: 0, deleted: [] }));
    return a;
  };
  for (const cred of credentials.values()) {
    const a = accountOf(cred.value);
    a.credentials.push(cred);
    a.lastAt = Math.max(a.lastAt, cred.last.at);
    a.mcpCalls += mcp.get(cred.value) ?? 0;
  }
  for (const o of objects.values()) if (o.kind !== 'balance') accountOf(o.owner).objects.push(o);
  for (const b of balances) {
    const a = accountOf(b.owner);
    if (!a.balance || b.value.call > a.balance.call) a.balance = b.value;
  }
  for (const p of purchases) accountOf(p.owner).purchases.push(p.value);
  for (const d of deleted) accountOf(d.owner).deleted.push(d.value);
  const list = [...accounts.values()].sort((x, y) => Math.min(...x.credentials.flatMap((c) => c.calls)) - Math.min(...y.credentials.flatMap((c) => c.calls)));
  for (const a of list) a.objects.sort((x, y) => x.firstCall - y.firstCall);
  return { accounts: list, ignored };
}

