import { withinLimits } from './limits.js';
import { Names } from './names.js';
import type { SeenAccount, SeenCredential } from './observe.js';
import type { Seen } from './shapes.js';
import type { Json, MappedCredential, MappedObject, SceneAccount, SceneBuild, SceneKey, SceneNote } from './types.js';

/** Build request fields a scenario's build carries as they are (POST /api/v1/builds's body). */
const BUILD_FIELDS = ['buildType', 'pages', 'researchPolicy', 'researchMode', 'qualityMode', 'generateImages', 'pressRelease', 'socialPlatforms'] as const;
const STATUSES = new Set(['pending', 'researching', 'drafting', 'critiquing', 'merging', 'completed', 'failed']);

export interface AccountScene {
  account: SceneAccount;
  notes: SceneNote[];
  objects: MappedObject[];
  credentials: MappedCredential[];
  unmapped: Array<{ calls: number[]; why: string }>;
}

/** Text a scene states as recorded, or replaced (`--redact-text`). */
export type TextOf = (text: string) => string;

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const callsOf = (c: SeenCredential) => `call${c.calls.length > 1 ? 's' : ''} #${c.calls.slice(0, 5).join(', #')}${c.calls.length > 5 ? ', …' : ''}`;

/** One account of the scene: the last state the recording showed of it, each object named, and what it leaves out. */
export function accountScene(seen: SeenAccount, name: string, text: TextOf, downloads: ReadonlyMap<string, string[]>): AccountScene {
  const names = new Names();
  const notes: SceneNote[] = [];
  const objects: MappedObject[] = [];
  const leftOut = (t: string) => notes.push({ kind: 'left out', text: t });
  const cannot = (t: string) => notes.push({ kind: 'cannot state', text: t });
  const map = (kind: MappedObject['kind'], recorded: string, n: string, page?: number) => objects.push({ kind, recorded, account: name, name: n, ...(page === undefined ? {} : { page }), loaded: null });
  const of = (kind: Seen['kind']) => seen.objects.filter((o) => o.kind === kind);
  const gone = new Set(seen.deleted.map((d) => d.id));
  for (const d of seen.deleted) leftOut(`${d.kind} ${d.id}: deleted at call #${d.call}`);

  // Keys: the recording's credentials, by what a key list showed of them, else by the role their answers show.
  const listed = of('key');
  const byHint = new Map(listed.map((k) => [str(k.fields.hint), k]));
  const keys: SceneKey[] = [];
  const credentials: MappedCredential[] = [];
  const unmapped: AccountScene['unmapped'] = [];
  const stated = new Set<Seen>();
  const nameOfHint = new Map<string, string>();
  for (const c of seen.credentials) {
    if (!c.value.replace(/^\S+\s+/, '').startsWith('svc_live_')) {
      unmapped.push({ calls: c.calls, why: 'an OAuth access token or another credential than an API key' });
      cannot(`a credential that is no API key (an OAuth access token?), at ${callsOf(c)}: a scenario states API keys only`);
      continue;
    }
    const same = nameOfHint.get(c.hint); // the same key, recorded whole in one place and cut in another
    if (same) {
      credentials.push({ account: name, key: same, calls: c.calls });
      continue;
    }
    const key = byHint.get(c.hint);
    if (key) stated.add(key);
    const role = c.refused && !c.authenticated ? 'revoked' : c.writeDenied && !c.readDenied ? 'read-only' : c.readDenied && !c.writeDenied ? 'write-only' : 'read-write';
    const scopes = (key?.fields.scopes as SceneKey['scopes'] | undefined) ?? (role === 'read-only' ? ['svc:read'] : role === 'write-only' ? ['svc:write'] : ['svc:read', 'svc:write']);
    const keyName = names.take('key', key && typeof key.fields.name === 'string' ? text(key.fields.name) : role, role).name;
    const revoked = key ? key.fields.status !== 'active' : role === 'revoked';
    if (key && typeof key.fields.replacedById === 'string') cannot(`key ${keyName} was rotated (a new key replaced it): stated revoked`);
    const limited = c.last.status === 429 && c.last.bucket === 'key' && seen.lastAt < c.last.at + (c.last.retryAfter ?? 60) * 1000;
    if (c.last.status === 429 && c.last.bucket !== 'key') cannot(`key ${keyName}'s last call (#${c.last.call}) was refused 429 by the ${c.last.bucket ?? 'unnamed'} bucket: a scenario spends only a key's minute of calls`);
    keys.push({ name: keyName, scopes, ...(revoked ? { revoked: true } : {}), ...(limited && !revoked ? { rateLimited: true } : {}) });
    credentials.push({ account: name, key: keyName, calls: c.calls });
    nameOfHint.set(c.hint, keyName);
    if (key) map('key', key.id, keyName);
  }
  for (const k of listed) {
    if (stated.has(k)) continue;
    const keyName = names.take('key', typeof k.fields.name === 'string' ? text(k.fields.name) : 'key', 'key').name;
    keys.push({ name: keyName, scopes: k.fields.scopes as SceneKey['scopes'], ...(k.fields.status !== 'active' ? { revoked: true } : {}) });
    if (typeof k.fields.replacedById === 'string') cannot(`key ${keyName} was rotated (a new key replaced it): stated revoked`);
    map('key', k.id, keyName);
  }
  if (listed.length) cannot("keys' createdAt and lastUsedAt: the scene's keys are made when it loads");

  // Targets and their library, as last answered.
  const targets: NonNullable<SceneAccount['targets']> = [];
  const slugOf = new Map<string, string>();
  for (const t of of('target')) {
    if (gone.has(t.id)) continue;
    const f = t.fields;
    const slug = text(str(f.slug) as string);
    slugOf.set(t.id, slug);
    targets.push({ name: text(str(f.name) ?? slug), slug, ...(typeof f.description === 'string' ? { description: text(f.description) } : {}), ...(f.brandKit && typeof f.brandKit === 'object' ? { brandKit: userText(f.brandKit, text) } : {}) });
    map('target', t.id, slug);
  }
  const standIn = (targetId: string): string => {
    const known = slugOf.get(targetId);
    if (known) return known;
    const slug = `target-${targetId.slice(0, 8).toLowerCase().replace(/[^a-z0-9]/g, '0')}`;
    slugOf.set(targetId, slug);
    targets.push({ name: slug, slug });
    map('target', targetId, slug);
    leftOut(gone.has(targetId) ? `target ${targetId} was deleted, its builds were not: a stand-in named ${slug} holds them` : `target ${targetId}'s fields: the recording never showed them; a stand-in named ${slug} holds its builds`);
    return slug;
  };
  const libraryName = new Map<string, string>();
  for (const item of of('library')) {
    const targetId = str(item.fields.targetId) as string;
    if (gone.has(item.id) || gone.has(targetId)) continue;
    const slug = standIn(targetId);
    const target = targets.find((t) => t.slug === slug) as NonNullable<SceneAccount['targets']>[number];
    const recordedName = str(item.fields.name) ?? 'item';
    const { name: itemName, changed } = names.take('library', text(recordedName), 'item');
    if (changed) cannot(`library item ${item.id}'s name ${JSON.stringify(recordedName)} is no scenario name: named ${itemName}`);
    (target.library ??= []).push({ name: itemName, type: item.fields.type, content: text(str(item.fields.content) ?? ''), ...(typeof item.fields.url === 'string' ? { url: urlText(item.fields.url, text) } : {}) });
    libraryName.set(item.id, itemName);
    map('library', item.id, itemName);
  }

  // Builds at the status last seen, their deliverables, share links and listen versions.
  const builds: SceneBuild[] = [];
  const deliverables = of('deliverable');
  for (const b of of('build')) {
    const f = { ...(b.request ?? {}), ...b.fields };
    const targetId = str(f.targetId);
    if (!targetId || typeof f.kind !== 'string' || typeof f.objective !== 'string') {
      leftOut(`build ${b.id}: the recording shows neither its request nor its answer (its kind, objective, target)`);
      continue;
    }
    const status = STATUSES.has(str(f.status) ?? '') ? (f.status as string) : 'pending';
    const failure = f.failure as { stage?: unknown } | null | undefined;
    const buildName = names.take('build', `${f.kind}-${builds.length + 1}`, 'build').name;
    const build: SceneBuild = { name: buildName, target: standIn(targetId), kind: f.kind, objective: text(f.objective), status };
    for (const field of BUILD_FIELDS) if (f[field] !== undefined && f[field] !== null) build[field] = field === 'pressRelease' ? userText(f[field], text) : f[field];
    if (build.buildType !== 'suite') delete build.pages;
    if (status === 'failed') build.failedAt = str(failure?.stage) ?? 'researching';
    const items = ((f.libraryItemIds as string[] | undefined) ?? []).map((id) => libraryName.get(id));
    if (items.length) build.libraryItems = items.filter((n): n is string => n !== undefined);
    if (items.includes(undefined)) leftOut(`build ${buildName}'s library items the recording never showed`);
    if (str(f.idempotencyKey)) cannot(`build ${buildName}'s Idempotency-Key: a POST repeating it makes a new build on the scene`);
    if (b.fields.status === undefined) leftOut(`build ${buildName}'s progress after it was made (call #${b.firstCall}): the recording never read it, so it is stated pending`);
    map('build', b.id, buildName);
    const pages = deliverables.filter((d) => d.fields.buildId === b.id);
    for (const d of pages) {
      const page = Number(d.fields.pageIndex) || 0;
      map('deliverable', d.id, buildName, page);
      const formats = downloads.get(d.id);
      if (formats) leftOut(`deliverable ${buildName} page ${page} was downloaded (${formats.join(', ')}): the scene's content is generated anew, same kind and options`);
      if (status !== 'completed') continue;
      for (const s of of('share').filter((x) => x.fields.deliverableId === d.id)) {
        if (s.fields.revokedAt || gone.has(s.id)) {
          cannot(`share link ${s.id} of ${buildName} was revoked: a scenario states live links only`);
          continue;
        }
        const shareName = names.take('share', `${buildName}-share`, 'share').name;
        const expires = str(s.fields.expiresAt) ? Math.round((Date.parse(s.fields.expiresAt as string) - seen.lastAt) / 1000) : undefined;
        if (expires !== undefined && expires < 60) {
          cannot(`share link ${s.id} of ${buildName} had expired (or expires within a minute): a scenario states links that work`);
          continue;
        }
        (build.shares ??= []).push({ name: shareName, ...(page ? { page } : {}), ...(expires !== undefined ? { expiresInSeconds: Math.min(expires, 31_536_000) } : {}) });
        map('share', s.id, shareName);
      }
      for (const a of of('audio').filter((x) => x.fields.deliverableId === d.id)) {
        const audioName = names.take('audio', `${buildName}-${str(a.fields.voice) ?? 'audio'}`, 'audio').name;
        (build.audio ??= []).push({ name: audioName, voice: str(a.fields.voice) as string, ...(page ? { page } : {}) });
        map('audio', a.id, audioName);
      }
    }
    builds.push(build);
  }
  if (builds.length) cannot("builds' stage timestamps, progress and generated content: the scene places each at its status on its own durations");

  const images = of('image').map((img) => {
    const f = img.fields;
    const imageName = names.take('image', `image-${img.firstCall}`, 'image').name;
    map('image', img.id, imageName);
    return { name: imageName, prompt: text(str(f.prompt) ?? 'image'), ...pick(f, ['style', 'mood', 'size']), ...(Array.isArray(f.colors) && f.colors.length ? { colors: f.colors } : {}), ...(f.logo && typeof f.logo === 'object' ? { logo: f.logo } : {}) };
  });
  const chats = of('chat').flatMap((c) => {
    const targetId = str(c.fields.targetId);
    if (!targetId || gone.has(targetId)) return [];
    const chatName = names.take('chat', `chat-${c.firstCall}`, 'chat').name;
    map('chat', c.id, chatName);
    const messages = Array.isArray(c.fields.messages) ? (c.fields.messages as Json[]).filter((m) => m.role === 'user').map((m) => text(String(m.content))) : [];
    if (!Array.isArray(c.fields.messages) && Number(c.fields.messageCount) > 0) leftOut(`chat ${chatName}'s ${String(c.fields.messageCount)} message(s): the recording listed it, never read it`);
    else if (messages.length) cannot(`chat ${chatName}'s assistant replies: the scene's are generated anew`);
    return [{ name: chatName, target: standIn(targetId), ...(typeof c.fields.title === 'string' ? { title: text(c.fields.title) } : {}), ...(messages.length ? { messages: messages.slice(0, 20) } : {}) }];
  });
  const transactions = of('transaction').length;
  if (transactions) cannot(`${transactions} transaction(s) of the ledger: the scene's history is its own (purchases, charges and refunds of what it makes)`);
  if (seen.mcpCalls) leftOut(`${seen.mcpCalls} MCP call(s): their sessions are not state a scenario holds (tool results are read as the REST answers they carry)`);

  const account: SceneAccount = { name, keys };
  const balance = closingBalance(seen, builds, notes);
  if (balance !== undefined) account.balance = balance;
  if (Number.isFinite(seen.lastAt)) account.clock = { at: new Date(seen.lastAt).toISOString() };
  const purchases = fittingPurchases(seen, balance, notes);
  if (purchases.length) account.purchases = purchases;
  if (targets.length) account.targets = targets;
  if (builds.length) account.builds = builds;
  if (images.length) account.images = images;
  if (chats.length) account.chats = chats;
  const kept = withinLimits(account, objects, notes);
  return { account, notes, objects: kept, credentials: credentials.filter((c) => account.keys.some((k) => k.name === c.key)), unmapped };
}

function pick(o: Json, fields: string[]): Json {
  return Object.fromEntries(fields.filter((f) => typeof o[f] === 'string').map((f) => [f, o[f]]));
}

/** Fields of a brand kit or of press-release options whose values the contract enumerates, or that are dates: never user text. */
const NOT_TEXT = new Set(['defaultQuoteMode', 'mode', 'date', 'metaDescriptionMaxLength']);

/** A brand kit or press-release options with every string of user text through `text` (a contact's email keeps its shape, so stays one). */
function userText(value: unknown, text: TextOf, key = ''): unknown {
  if (typeof value === 'string') return NOT_TEXT.has(key) ? value : text(value);
  if (Array.isArray(value)) return value.map((v) => userText(v, text, key));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, userText(v, text, k)]));
  return value;
}

/** A URL's scheme and host kept (the API checks them), the rest through `text`. */
function urlText(url: string, text: TextOf): string {
  const m = /^([a-z][a-z0-9+.-]*:\/\/[^/?#]*)(.*)$/i.exec(url);
  return m ? `${m[1]}${m[2] ? text(m[2]) : ''}` : text(url);
}

/**
 * The balance once the recording ends: the last balance answer, less what the account was charged
 * after it (builds and images made later), plus the refunds of builds seen failing after it.
 */
function closingBalance(seen: SeenAccount, builds: SceneBuild[], notes: SceneNote[]): number | undefined {
  const read = seen.balance;
  if (!read) {
    notes.push({ kind: 'left out', text: 'the balance: the recording never read it (the scene opens with the default 100)' });
    return undefined;
  }
  let balance = read.balance;
  for (const o of seen.objects) {
    const cost = Number(o.fields.cost);
    const failure = o.fields.failure as { refundedTokens?: unknown } | null | undefined;
    const failedAt = Date.parse(String(o.fields.updatedAt));
    if (o.kind === 'build' && o.request && o.firstCall > read.call) {
      if (!Number.isFinite(cost)) notes.push({ kind: 'left out', text: `the cost of build ${o.id}, made after the last balance read: the balance may be off by it` });
      else if (o.fields.status !== 'failed') balance -= cost;
    } else if (o.kind === 'build' && o.fields.status === 'failed' && o.firstCall < read.call && failedAt > read.at) balance += Number(failure?.refundedTokens) || 0;
    else if (o.kind === 'image' && o.firstCall > read.call && Number.isFinite(cost)) balance -= cost;
  }
  notes.push({ kind: 'cannot state', text: `lifetimePurchased ${String(read.lifetimePurchased)} and lifetimeUsed ${String(read.lifetimeUsed)} (call #${read.call}): the scene's own history sets them` });
  if (builds.length === 0 && balance !== read.balance) notes.push({ kind: 'left out', text: 'charges of objects the scene does not hold' });
  return Math.max(0, balance);
}

/** The purchases seen, as many as the closing balance leaves room for (a scenario's purchases cannot bring more than it ends with). */
function fittingPurchases(seen: SeenAccount, balance: number | undefined, notes: SceneNote[]): Array<{ bundle: string }> {
  const room = balance ?? 100;
  const kept: Array<{ bundle: string }> = [];
  let tokens = 0;
  for (const p of seen.purchases) {
    if (tokens + p.tokens > room) {
      notes.push({ kind: 'cannot state', text: `the ${p.bundle} bundle bought at call #${p.call}: with it the history would bring more tokens than the balance ends with` });
      continue;
    }
    tokens += p.tokens;
    kept.push({ bundle: p.bundle });
  }
  return kept;
}
