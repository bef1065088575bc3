import { matchOperation } from '../shared/exercise-log.js';
import { CONTRACT_FILES, readContractDocument, readOperations } from '../shared/openapi-model.js';
import type { FetchLike } from '../shared/server-time.js';
import { compareAnswers, distinct, parseBody, type Answer } from './compare.js';
import { credentialRoles, pathOf, type CredentialRole } from './credentials.js';
import { header, type Har, type HarEntry } from '../shared/har.js';
import { IdMap } from './id-map.js';
import type { Drift } from './rules.js';
import { ResponseSchemas } from './schema-walk.js';
import { buildOf, FINAL_STATES, StateTracker } from './states.js';
import { openTarget, recordedTime, type ReplayTarget } from './target.js';

export interface ReplayOptions {
  har: Har;
  baseUrl: string;
  /** The target's credentials by role; without, the target must be the simulator (a fresh account is made). */
  keys?: Partial<Record<CredentialRole, string>>;
  /** The fresh simulator account's balance (default: the recording's, from its first balance answer). */
  balance?: number;
  /** How long to wait between the extra polls of a build that has not ended where the recording's had, on a target whose clock cannot be moved. */
  pollIntervalMs?: number;
  /** At most this many extra polls per build (default 200). */
  maxFollowUps?: number;
  fetch?: FetchLike;
  /** Stops the replay before the next call (and ends a wait between polls): what was replayed is reported. */
  signal?: AbortSignal;
}

export interface ReplayResult {
  target: string;
  /** The simulator's pipeline speed, when the target is the simulator. */
  pipelineSpeed?: string;
  entries: number;
  replayed: number;
  /** Calls not replayed, by reason (the simulator's control API, OAuth sign-in pages…). */
  skipped: Record<string, number>;
  /** Extra polls made to follow a build to the end the recording saw. */
  followUps: number;
  /** Recorded ids and secrets the replay learnt the target's for. */
  mapped: number;
  drifts: Drift[];
  /** Why the replay stopped before the recording's end (a signal), when it did. */
  interrupted?: string;
}

/** Request headers that belong to a connection or are the client library's own, not the call's. */
const NOT_SENT = new Set(['host', 'connection', 'keep-alive', 'content-length', 'transfer-encoding', 'accept-encoding', 'authorization', 'cookie']);
/** Answer headers that identify a session: learnt as ids are. */
const SESSION_HEADERS = ['mcp-session-id'];

/**
 * Replays a recording's calls in order against a target and compares each answer with the
 * recorded one (see compare.ts and states.ts for what is compared). Ids and keys are mapped
 * as a client learns them; on the simulator, the account's clock moves where the recording's
 * time moved, and a build is followed to the end the recording saw by polling further.
 */
export async function replayRecording(options: ReplayOptions): Promise<ReplayResult> {
  const fetchImpl = options.fetch ?? fetch;
  const entries = options.har.log.entries;
  const operations = readOperations();
  const doc = readContractDocument(CONTRACT_FILES.service);
  const schemas = new ResponseSchemas(doc);
  const documentedHeaders = documentedResponseHeaders(doc);
  const target = await openTarget({ baseUrl: options.baseUrl, keys: options.keys, balance: options.balance, entries, fetch: fetchImpl });
  const roles = credentialRoles(entries, operations);
  const ids = new IdMap();
  const states = new StateTracker();
  const result: ReplayResult = { target: target.baseUrl, ...(target.pipelineSpeed ? { pipelineSpeed: target.pipelineSpeed } : {}), entries: entries.length, replayed: 0, skipped: {}, followUps: 0, mapped: 0, drifts: [] };
  let lastTime: number | undefined;

  for (const [index, entry] of entries.entries()) {
    if (options.signal?.aborted) {
      result.interrupted = String(options.signal.reason ?? 'stopped');
      break;
    }
    const path = servicePath(entry.request.url);
    if (path === undefined || entry._injected !== undefined || isNotificationStream(entry)) {
      const reason = path === undefined ? skipReason(entry.request.url) : entry._injected !== undefined ? 'a fault the simulator injected on purpose (_injected)' : 'an MCP notification stream (GET /mcp), not a call';
      result.skipped[reason] = (result.skipped[reason] ?? 0) + 1;
      continue;
    }
    const at = Math.max(recordedTime(entry), lastTime ?? Number.NEGATIVE_INFINITY);
    if (lastTime !== undefined && at > lastTime && target.control) await target.control.advance(at - lastTime);
    lastTime = at;
    const call = { call: index + 1, method: entry.request.method.toUpperCase(), url: path, operation: matchOperation(operations, entry.request.method, path) };
    const recorded = recordedAnswer(entry);
    const send = () => sendCall(fetchImpl, target, entry, path, ids, roles);
    let replayed: Answer;
    try {
      replayed = await send();
    } catch (e) {
      result.drifts.push({ call: call.call, method: call.method, url: path, ...(call.operation ? { operationId: call.operation.id } : {}), rule: 'noAnswer', recorded: recorded.status, replayed: null, explanation: `the target gave no answer: ${String((e as Error).cause ?? (e as Error).message)}` });
      continue;
    }
    result.replayed++;
    learn(ids, recorded, replayed);
    const recordedBuild = buildOf(unwrap(recorded.json));
    if (recordedBuild) replayed = await followBuild({ recordedBuild, replayed, recorded, seen: { call: call.call, method: call.method, url: path }, states, ids, send, target, options, result });
    result.drifts.push(...compareAnswers(call, recorded, replayed, schemas, documentedHeaders, target.control !== null));
  }
  result.mapped = ids.size;
  result.drifts = distinct([...result.drifts, ...states.drifts()]).sort((a, b) => a.call - b.call);
  return result;
}

interface FollowContext {
  recordedBuild: { id: string; status: string };
  recorded: Answer;
  replayed: Answer;
  seen: { call: number; method: string; url: string };
  states: StateTracker;
  ids: IdMap;
  send: () => Promise<Answer>;
  target: ReplayTarget;
  options: ReplayOptions;
  result: ReplayResult;
}

/**
 * Notes a build's state on both sides; where the recording saw the build end and the target's
 * has not, polls on as the client would have (waiting as a 429 says), and answers the last poll.
 */
async function followBuild(x: FollowContext): Promise<Answer> {
  const { recordedBuild, seen, states } = x;
  let replayed = x.replayed;
  states.observe(recordedBuild.id, 'recorded', { status: recordedBuild.status, ...seen });
  let replayedBuild = buildOf(unwrap(replayed.json));
  if (replayedBuild) states.observe(recordedBuild.id, 'replayed', { status: replayedBuild.status, ...seen });
  const limit = x.options.maxFollowUps ?? 200;
  for (let n = 0; replayedBuild && FINAL_STATES.has(recordedBuild.status) && !FINAL_STATES.has(replayedBuild.status) && n < limit && !x.options.signal?.aborted; n++) {
    await wait(x.target, x.options.pollIntervalMs ?? 30_000, x.options.signal);
    if (x.options.signal?.aborted) break;
    replayed = await x.send();
    x.result.followUps++;
    if (replayed.status === 429) {
      await wait(x.target, Math.min(60, Number(replayed.headers['retry-after']) || 1) * 1000);
      replayed = await x.send();
    }
    learn(x.ids, x.recorded, replayed);
    replayedBuild = buildOf(unwrap(replayed.json));
    if (replayedBuild) states.observe(recordedBuild.id, 'replayed', { status: replayedBuild.status, ...seen });
  }
  return replayed;
}

/** The path and query of a recorded call of the service (`/api/…`) or of its MCP server (`/mcp`), below any base path; else undefined. */
export function servicePath(url: string): string | undefined {
  const path = pathOf(url);
  const match = /(\/api\/.*|\/mcp(?:[/?].*)?)$/.exec(path);
  return match ? match[1] : undefined;
}

function isNotificationStream(entry: HarEntry): boolean {
  return entry.request.method.toUpperCase() === 'GET' && /\/mcp(\?|$)/.test(pathOf(entry.request.url));
}

function skipReason(url: string): string {
  const path = pathOf(url);
  if (/\/_sim(\/|$|\?)/.test(path)) return "the simulator's control API";
  if (/\/(oauth|\.well-known)\//.test(path)) return 'OAuth sign-in and discovery (a browser flow, not replayed)';
  return 'not a call of the service API or its MCP server';
}

export function recordedAnswer(entry: HarEntry): Answer {
  const headers: Record<string, string> = {};
  for (const h of entry.response.headers) headers[h.name.toLowerCase()] = h.value;
  const content = entry.response.content;
  const text = content.encoding === 'base64' ? undefined : content.text;
  return { status: entry.response.status, headers, text, json: parseBody(text, headers['content-type'] ?? content.mimeType ?? '') };
}

export async function sendCall(fetchImpl: FetchLike, target: ReplayTarget, entry: HarEntry, path: string, ids: IdMap, roles: Map<string, CredentialRole>): Promise<Answer> {
  const headers: Record<string, string> = {};
  for (const h of entry.request.headers) {
    const name = h.name.toLowerCase();
    if (!NOT_SENT.has(name) && !name.startsWith(':')) headers[name] = ids.get(h.value) ?? ids.substitute(h.value);
  }
  const credential = header(entry.request.headers, 'authorization');
  if (credential !== undefined) headers.authorization = mapCredential(credential, target, ids, roles);
  const post = entry.request.postData;
  let body: string | undefined;
  if (post && post.text) {
    if ((post.mimeType ?? '').includes('json')) {
      try {
        body = JSON.stringify(ids.substituteJson(JSON.parse(post.text)));
      } catch {
        body = ids.substitute(post.text);
      }
    } else body = ids.substitute(post.text);
  }
  const response = await fetchImpl(`${target.baseUrl}${ids.substitute(path)}`, { method: entry.request.method.toUpperCase(), headers, body });
  const answerHeaders: Record<string, string> = {};
  response.headers.forEach((value, name) => (answerHeaders[name.toLowerCase()] = value));
  const contentType = answerHeaders['content-type'] ?? '';
  const text = /json|text|event-stream|xml|markdown|html/.test(contentType) || contentType === '' ? await response.text() : (await response.arrayBuffer(), undefined);
  return { status: response.status, headers: answerHeaders, text, json: parseBody(text, contentType) };
}

/** The target's credential for a recorded one: learnt from an answer (a key made during the recording), else the target's key of the same role. */
function mapCredential(recorded: string, target: ReplayTarget, ids: IdMap, roles: Map<string, CredentialRole>): string {
  const [scheme = '', ...rest] = recorded.split(' ');
  const value = rest.join(' ');
  const learnt = ids.get(value);
  if (learnt) return `${scheme} ${learnt}`;
  const role = roles.get(recorded);
  // A key or token of the recording (redacted, or whole in a browser's HAR) is the target's of the same role;
  // anything else (malformed on purpose, say) is sent as it was recorded.
  const credential = value.includes('…') || value.startsWith('svc_live_') || value.startsWith('sim_');
  if (!credential || !role) return recorded;
  const key = target.keys[role] ?? (role === 'revoked' ? undefined : target.keys.readWrite);
  return key ? `${scheme} ${key}` : recorded;
}

function learn(ids: IdMap, recorded: Answer, replayed: Answer): void {
  ids.learn(recorded.json, replayed.json);
  for (const name of SESSION_HEADERS) {
    const rec = recorded.headers[name];
    const rep = replayed.headers[name];
    if (rec && rep) ids.set(rec, rep);
  }
}

/** An MCP tool result's REST body (`structuredContent`), or the answer itself. */
function unwrap(json: unknown): unknown {
  const j = json as { jsonrpc?: unknown; result?: { structuredContent?: unknown } } | undefined;
  return j?.jsonrpc ? j.result?.structuredContent : json;
}

async function wait(target: ReplayTarget, pollIntervalMs: number, signal?: AbortSignal): Promise<void> {
  if (target.control) return target.control.advance(pollIntervalMs);
  await new Promise<void>((resolve) => {
    const timer = setTimeout(done, pollIntervalMs);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** Every response header openapi.yaml documents, lower-cased: the headers a replay compares. */
export function documentedResponseHeaders(doc: Record<string, any>): Set<string> {
  const names = new Set<string>(Object.keys(doc.components?.headers ?? {}).map((h) => h.toLowerCase()));
  const visit = (responses: Record<string, any> | undefined) => {
    for (const r of Object.values(responses ?? {})) for (const h of Object.keys((r as { headers?: object })?.headers ?? {})) names.add(h.toLowerCase());
  };
  visit(doc.components?.responses);
  for (const item of Object.values(doc.paths ?? {})) for (const op of Object.values(item as object)) visit((op as { responses?: Record<string, any> })?.responses);
  return names;
}
