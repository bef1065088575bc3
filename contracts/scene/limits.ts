import type { MappedObject, SceneAccount, SceneNote } from './types.js';

/** What one scenario account holds at most (scenario.schema.json's maxItems). */
const MAX = { keys: 25, targets: 50, library: 100, builds: 100, images: 50, chats: 50, shares: 10, audio: 10 } as const;

/**
 * The account within a scenario's limits: past one, the newest (the last made, the ones the
 * recording's last calls are about) are kept, and what is dropped is listed and leaves the
 * mapping. Targets that a kept build or chat names are kept first.
 */
export function withinLimits(account: SceneAccount, objects: MappedObject[], notes: SceneNote[]): MappedObject[] {
  const dropped = new Set<string>(); // `${kind}/${name}`
  const cut = <T extends { name: string }>(list: T[] | undefined, max: number, kind: MappedObject['kind'], what: string, keep: (t: T) => boolean = () => false): T[] | undefined => {
    if (!list || list.length <= max) return list;
    const kept = [...list.filter(keep), ...list.filter((t) => !keep(t)).reverse()].slice(0, max);
    const gone = list.filter((t) => !kept.includes(t));
    for (const t of gone) dropped.add(`${kind}/${t.name}`);
    notes.push({ kind: 'cannot state', text: `${gone.length} ${what} more than a scenario account holds (${max}): the oldest left out (${gone.slice(0, 5).map((t) => t.name).join(', ')}${gone.length > 5 ? ', …' : ''})` });
    return list.filter((t) => kept.includes(t));
  };
  account.keys = cut(account.keys, MAX.keys, 'key', 'keys') ?? [];
  account.builds = cut(account.builds, MAX.builds, 'build', 'builds');
  account.images = cut(account.images, MAX.images, 'image', 'images');
  account.chats = cut(account.chats, MAX.chats, 'chat', 'chats');
  const named = new Set([...(account.builds ?? []).map((b) => b.target), ...(account.chats ?? []).map((c) => c.target)]);
  const targets = cut(account.targets?.map((t) => ({ ...t, name: t.slug, display: t.name })), MAX.targets, 'target', 'targets', (t) => named.has(t.slug));
  account.targets = targets?.map(({ display, ...t }) => ({ ...t, name: display as string }));
  for (const t of account.targets ?? []) t.library = cut(t.library, MAX.library, 'library', `library items of ${t.slug}`);
  for (const b of account.builds ?? []) {
    b.shares = cut(b.shares, MAX.shares, 'share', `share links of ${b.name}`);
    b.audio = cut(b.audio, MAX.audio, 'audio', `listen versions of ${b.name}`);
    if (!b.shares) delete b.shares;
    if (!b.audio) delete b.audio;
  }
  for (const field of ['builds', 'images', 'chats', 'targets'] as const) if (!account[field]?.length) delete account[field];
  if (dropped.size === 0) return objects;
  // A build dropped takes its deliverables' names along; a dropped build's shares and audio go with it too.
  const droppedBuilds = new Set([...dropped].filter((d) => d.startsWith('build/')).map((d) => d.slice(6)));
  const keptShares = new Set((account.builds ?? []).flatMap((b) => (b.shares ?? []).map((s) => s.name)));
  const keptAudio = new Set((account.builds ?? []).flatMap((b) => (b.audio ?? []).map((a) => a.name)));
  return objects.filter((o) => !dropped.has(`${o.kind}/${o.name}`) && !(o.kind === 'deliverable' && droppedBuilds.has(o.name)) && !(o.kind === 'share' && !keptShares.has(o.name)) && !(o.kind === 'audio' && !keptAudio.has(o.name)));
}
