import { matchOperation } from '../shared/exercise-log.js';
import { CONTRACT_FILES, readContractDocument, readOperations } from '../shared/openapi-model.js';
import type { FetchLike } from '../shared/server-time.js';
import { type Answer, compareAnswers, distinct, documentedResponseHeaders, type Drift, IdMap, recordedAnswer, ResponseSchemas, sendCall } from '../drift/index.js';
import type { Har } from '../shared/har.js';
import { fillMapping, type LoadAnswer } from './mapping.js';
import { observe } from './observe.js';
import { planReads, type ReadPlan } from './reads.js';
import type { Scene, SceneMapping } from './types.js';

export interface SceneCheck {
  /** The simulator the scene was loaded into. */
  target: string;
  /** The mapping with the ids the load gave. */
  mapping: SceneMapping;
  replayed: number;
  superseded: number;
  excluded: ReadPlan['excluded'];
  writes: ReadPlan['writes'];
  skipped: Record<string, number>;
  drifts: Drift[];
}

/** Loads a scenario through the control API (POST /_sim/scenarios): its load answer, or why not. */
export async function loadOver(baseUrl: string, scene: Scene, fetchImpl: FetchLike = fetch): Promise<LoadAnswer> {
  const response = await fetchImpl(`${baseUrl}/_sim/scenarios`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(scene.scenario) });
  const text = await response.text();
  if (response.status !== 201) throw new Error(`${baseUrl} refused the scene (POST /_sim/scenarios answered ${response.status}): ${text.slice(0, 600)}`);
  return JSON.parse(text) as LoadAnswer;
}

/**
 * The round trip: loads the scene into the simulator at `baseUrl`, maps the recording's ids and
 * credentials to what the load gave (by name), replays the recording's last read of each URL
 * against it and compares each answer with the recorded one as drift does (status, error code,
 * field sets and types, enumerated values, documented headers). Reads the scene cannot answer as
 * recorded are listed with why, never compared.
 */
export async function checkScene(options: { har: Har; scene: Scene; baseUrl: string; fetch?: FetchLike; loaded?: LoadAnswer }): Promise<SceneCheck> {
  const fetchImpl = options.fetch ?? fetch;
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const { har, scene } = options;
  const loaded = options.loaded ?? (await loadOver(baseUrl, scene, fetchImpl));
  const ids = new IdMap();
  const raw = new Map<string, string>(); // recorded secrets in URLs (whole in a browser's export): replaced as text
  const keyIds = await listKeyIds(baseUrl, scene, loaded, fetchImpl);
  const mapping = fillMapping(scene.mapping, loaded, keyIds);
  for (const o of mapping.objects) if (o.loaded) ids.set(o.recorded, o.loaded);
  const shareTokens = new Map<string, string>();
  for (const account of observe(har).accounts) {
    for (const s of account.objects.filter((x) => x.kind === 'share')) {
      const mappedShare = mapping.objects.find((o) => o.kind === 'share' && o.recorded === s.id);
      const made = mappedShare && loaded.accounts[mappedShare.account]?.shares[mappedShare.name];
      if (made && typeof s.fields.token === 'string') {
        shareTokens.set(s.fields.token, made.token);
        raw.set(s.fields.token, made.token);
        ids.set(s.fields.token, made.token);
      }
    }
  }
  for (const c of mapping.credentials) {
    const value = loaded.accounts[c.account]?.keys[c.key];
    const entry = har.log.entries[(c.calls[0] as number) - 1];
    const recorded = entry?.request.headers.find((h) => h.name.toLowerCase() === 'authorization')?.value;
    if (value && recorded) ids.set(recorded.replace(/^\S+\s+/, ''), value);
  }

  const plan = planReads(har, scene, shareTokens);
  const operations = readOperations();
  const doc = readContractDocument(CONTRACT_FILES.service);
  const schemas = new ResponseSchemas(doc);
  const documented = documentedResponseHeaders(doc);
  const target = { baseUrl, keys: {}, control: null };
  const drifts: Drift[] = [];
  let replayed = 0;
  for (const read of plan.replay) {
    let path = read.path;
    for (const [recorded, made] of raw) path = path.split(recorded).join(made);
    const recorded = recordedAnswer(read.entry);
    let answer: Answer;
    try {
      answer = await sendCall(fetchImpl, target, read.entry, path, ids, new Map());
    } catch (e) {
      drifts.push({ call: read.call, method: read.method, url: read.url, rule: 'noAnswer', recorded: recorded.status, replayed: null, explanation: `the scene gave no answer: ${String((e as Error).cause ?? (e as Error).message)}` });
      continue;
    }
    replayed++;
    const operation = matchOperation(operations, read.method, read.path);
    drifts.push(...compareAnswers({ call: read.call, method: read.method, url: read.url, operation }, recorded, aligned(recorded, answer, ids), schemas, documented, false));
  }
  return { target: baseUrl, mapping, replayed, superseded: plan.superseded, excluded: plan.excluded, writes: plan.writes, skipped: plan.skipped, drifts: distinct(drifts) };
}

/** A list answer's items in the recorded list's order, each matched by its mapped id: the scene made them in another order. */
function aligned(recorded: Answer, replayed: Answer, ids: IdMap): Answer {
  const rec = (recorded.json as { data?: unknown } | undefined)?.data;
  const rep = (replayed.json as { data?: unknown } | undefined)?.data;
  if (!Array.isArray(rec) || !Array.isArray(rep)) return replayed;
  const left = [...(rep as Array<{ id?: unknown }>)];
  const ordered: unknown[] = [];
  for (const item of rec as Array<{ id?: unknown }>) {
    const want = typeof item?.id === 'string' ? ids.get(item.id) : undefined;
    const at = want === undefined ? -1 : left.findIndex((x) => x?.id === want);
    if (at >= 0) ordered.push(...left.splice(at, 1));
  }
  return { ...replayed, json: { ...(replayed.json as object), data: [...ordered, ...left] } };
}

/** Each account's key ids by the scene's key names, from the account's key list (a key that can read lists them). */
async function listKeyIds(baseUrl: string, scene: Scene, loaded: LoadAnswer, fetchImpl: FetchLike): Promise<Record<string, Record<string, string>>> {
  const out: Record<string, Record<string, string>> = {};
  for (const account of scene.scenario.accounts) {
    if (!scene.mapping.objects.some((o) => o.kind === 'key' && o.account === account.name)) continue;
    const reader = account.keys.find((k) => !k.revoked && !k.rateLimited && k.scopes.includes('svc:read'));
    const value = reader && loaded.accounts[account.name]?.keys[reader.name];
    if (!value) continue;
    const response = await fetchImpl(`${baseUrl}/api/v1/keys?limit=100`, { headers: { authorization: `Bearer ${value}` } });
    if (response.status !== 200) continue;
    const list = (await response.json()) as { data: Array<{ id: string; name: string }> };
    out[account.name] = Object.fromEntries(list.data.map((k) => [k.name, k.id]));
  }
  return out;
}
