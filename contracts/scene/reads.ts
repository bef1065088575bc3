import { header, type Har, type HarEntry } from '../shared/har.js';
import { servicePath } from '../drift/index.js';
import { redactUrl } from '../shared/url-redaction.js';
import { credentialOfCall } from './mapping.js';
import { responseText } from './observe.js';
import type { Scene } from './types.js';

export interface Call {
  call: number;
  method: string;
  url: string;
}

export interface PlannedRead extends Call {
  entry: HarEntry;
  /** The path and query to send (as recorded: a browser's export may hold a share token whole); `url` is it redacted, for reports. */
  path: string;
}

/** The recording's reads a scene is held to, and those it is not, each with why. */
export interface ReadPlan {
  replay: PlannedRead[];
  /** Reads of a URL the recording read again later, with the same credential: the later one shows the last state. */
  superseded: number;
  /** Last reads the scene cannot answer as recorded, by reason. */
  excluded: Array<Call & { why: string }>;
  /** Writes of the recording that name what the scene leaves out: replayed on the scene, they would not do what they did. */
  writes: Array<Call & { why: string }>;
  /** Calls that are no read or write of the service API, by reason. */
  skipped: Record<string, number>;
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const SHARED = /^\/api\/v1\/shared\/([^/?]+)/;

/**
 * Plans a scene's round trip: for each URL and credential, the recording's last read of it (the
 * state the scene reproduces), unless it names an object the scene leaves out, or was made with
 * a key the scene states otherwise (revoked, or its minute spent, later in the recording).
 */
export function planReads(har: Har, scene: Scene, shareTokens: ReadonlyMap<string, string>): ReadPlan {
  const mapped = new Set(scene.mapping.objects.map((o) => o.recorded.toLowerCase()));
  const seenIds = new Set<string>();
  const plan: ReadPlan = { replay: [], superseded: 0, excluded: [], writes: [], skipped: {} };
  const skip = (why: string) => (plan.skipped[why] = (plan.skipped[why] ?? 0) + 1);
  const last = new Map<string, number>();
  const entries = har.log.entries;
  entries.forEach((e, i) => {
    if (e.response.status < 300) for (const id of responseText(e)?.match(UUID) ?? []) seenIds.add(id.toLowerCase());
    const path = servicePath(e.request.url);
    if (path !== undefined && e.request.method.toUpperCase() === 'GET') last.set(`${header(e.request.headers, 'authorization') ?? ''} ${path}`, i);
  });
  const keys = new Map(scene.scenario.accounts.flatMap((a) => a.keys.map((k) => [`${a.name}/${k.name}`, k] as const)));
  /** Why a call's ids are not the scene's, if they are not. */
  const missing = (path: string, status: number): string | undefined => {
    for (const id of path.match(UUID) ?? []) {
      if (mapped.has(id.toLowerCase())) continue;
      // An id the recording never saw was one a client asked about on purpose (a 404): it is asked about again as it is.
      if (status === 404 && !seenIds.has(id.toLowerCase())) continue;
      const note = Object.values(scene.notes).flat().find((n) => n.text.includes(id));
      return `it names ${id}, which the scene does not hold${note ? ` (${note.kind}: ${note.text})` : ''}`;
    }
    const token = SHARED.exec(path)?.[1];
    if (token !== undefined && !shareTokens.has(decodeURIComponent(token)) && status !== 404) return 'it reads a share link the scene does not hold (revoked, expired, or never answered in the recording)';
    return undefined;
  };

  entries.forEach((e, i) => {
    const call = i + 1;
    const path = servicePath(e.request.url);
    const method = e.request.method.toUpperCase();
    if (path === undefined) return skip('not a call of the service API (the control API, OAuth pages, …)');
    if (e._injected !== undefined) return skip('a fault the simulator injected on purpose (_injected)');
    if (/^\/mcp(\?|$)/.test(path)) return skip('an MCP call (sessions are not replayed on a scene)');
    const where: Call = { call, method, url: redactUrl(path) };
    const status = e.response.status;
    if (method !== 'GET') {
      const why = missing(path, status);
      if (why && status < 300) plan.writes.push({ ...where, why });
      return;
    }
    const auth = header(e.request.headers, 'authorization');
    if (last.get(`${auth ?? ''} ${path}`) !== i) {
      plan.superseded++;
      return;
    }
    const credential = auth ? credentialOfCall(scene.mapping, call) : undefined;
    const key = credential ? keys.get(`${credential.account}/${credential.key}`) : undefined;
    const why = auth && !key
      ? 'its credential is no key of the scene (an OAuth token, or a credential no answer placed)'
      : key?.revoked && status !== 401
        ? `made before key ${key.name} was revoked (the scene states it revoked)`
        : key?.rateLimited && status !== 429
          ? `made before key ${key.name} spent its minute of calls (the scene states it rate-limited)`
          : status === 429 && !key?.rateLimited
            ? 'a 429 of a rate-limit bucket the scene does not spend'
            : status >= 500
              ? 'a server error'
              : missing(path, status);
    if (why) plan.excluded.push({ ...where, why });
    else plan.replay.push({ ...where, entry: e, path });
  });
  return plan;
}
