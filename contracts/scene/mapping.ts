import { readFileSync } from 'node:fs';
import type { MappedObject, SceneMapping } from './types.js';

/** What loading a scenario answers (docs/reference/scenarios.md, "The load answer"), as far as the mapping reads it. */
export interface LoadAnswer {
  scenario: string;
  accounts: Record<string, {
    accountId: string;
    keys: Record<string, string>;
    targets: Record<string, string>;
    library: Record<string, string>;
    builds: Record<string, { buildId: string; deliverableIds: string[] }>;
    shares: Record<string, { shareId: string; token: string; url: string }>;
    audio: Record<string, string>;
    images: Record<string, string>;
    chats: Record<string, string>;
  }>;
}

/** The new id of one mapped object, read from a load answer by its account and name; undefined when the answer has none (a key's id). */
export function loadedId(o: MappedObject, loaded: LoadAnswer): string | undefined {
  const a = loaded.accounts[o.account];
  if (!a) return undefined;
  switch (o.kind) {
    case 'target': return a.targets[o.name];
    case 'library': return a.library[o.name];
    case 'build': return a.builds[o.name]?.buildId;
    case 'deliverable': return a.builds[o.name]?.deliverableIds[o.page ?? 0];
    case 'share': return a.shares[o.name]?.shareId;
    case 'audio': return a.audio[o.name];
    case 'image': return a.images[o.name];
    case 'chat': return a.chats[o.name];
    case 'key': return undefined; // the load answer gives key values, not ids: GET /api/v1/keys names them
  }
}

/**
 * The mapping with each object's new id from a load answer (`scene --map-loaded answer.json`,
 * or the check after loading): recorded id → name → new id. Key ids come from `keyIds` (the
 * account's key list, by name) when given. Secrets of the load answer (keys, share tokens) are
 * never written into it.
 */
export function fillMapping(mapping: SceneMapping, loaded: LoadAnswer, keyIds: Record<string, Record<string, string>> = {}): SceneMapping {
  if (loaded.scenario !== mapping.scenario) throw new Error(`the load answer is of scenario ${JSON.stringify(loaded.scenario)}, the mapping of ${JSON.stringify(mapping.scenario)}`);
  return {
    ...mapping,
    objects: mapping.objects.map((o) => ({ ...o, loaded: (o.kind === 'key' ? keyIds[o.account]?.[o.name] : loadedId(o, loaded)) ?? null })),
  };
}

export function readLoadAnswer(file: string): LoadAnswer {
  let doc: any;
  try {
    doc = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`${file} is not a readable JSON file: ${(e as Error).message}`);
  }
  if (typeof doc?.scenario !== 'string' || !doc.accounts || typeof doc.accounts !== 'object') throw new Error(`${file} is not a scenario's load answer (scenario, accounts)`);
  return doc as LoadAnswer;
}

export function readMapping(file: string): SceneMapping {
  const doc = JSON.parse(readFileSync(file, 'utf8')) as SceneMapping;
  if (typeof doc?.scenario !== 'string' || !Array.isArray(doc.objects) || !Array.isArray(doc.credentials)) throw new Error(`${file} is not a scene's mapping (scenario, credentials, objects)`);
  return doc;
}

/** The scene key a recorded call was made with, by the call's number. */
export function credentialOfCall(mapping: SceneMapping, call: number): SceneMapping['credentials'][number] | undefined {
  return mapping.credentials.find((c) => c.calls.includes(call));
}
