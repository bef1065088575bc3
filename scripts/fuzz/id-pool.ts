import fc, { type Arbitrary } from 'fast-check';
import type { FuzzRequest, Operation } from './operations.js';

type Json = Record<string, any>;

const PER_KIND = 64;

/** Path segments that name a collection, and the kind of id its members have. */
const COLLECTIONS: Record<string, string> = {
  targets: 'target',
  builds: 'build',
  deliverables: 'deliverable',
  library: 'item',
  shares: 'share',
  images: 'image',
  audio: 'audio',
  chats: 'chat',
  messages: 'message',
  transactions: 'transaction',
  keys: 'key',
  grants: 'grant',
  accounts: 'account',
  faults: 'fault',
  voices: 'voice',
};

/**
 * Ids the server has handed out, by kind, so that generated requests name real resources
 * (Schemathesis gets there with OpenAPI links). Keys listed by the API are not taken: the
 * fuzzer must not revoke the key it signs in with, only keys it created itself.
 */
export class IdPool {
  private readonly ids = new Map<string, string[]>();

  /** For a parameter or field name (`targetId`, `buildIds`, `token`, `accountId`): real ids, else undefined. */
  readonly arbitrary = (name: string): Arbitrary<string> | undefined => {
    const kind = kindOf(name);
    if (!kind) return undefined;
    return fc.nat().map((i) => {
      const list = this.ids.get(kind);
      return list && list.length > 0 ? list[i % list.length]! : '00000000-0000-4000-8000-000000000000';
    });
  };

  harvest(op: Operation, req: FuzzRequest, body: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return;
    }
    const collection = COLLECTIONS[lastCollection(op.template)];
    const listsKeys = collection === 'key' && req.method !== 'POST';
    this.walk(parsed, listsKeys ? undefined : collection, 0);
  }

  private walk(value: unknown, collection: string | undefined, depth: number): void {
    if (depth > 4 || value === null || typeof value !== 'object') return;
    if (Array.isArray(value)) {
      for (const item of value.slice(0, 20)) this.walk(item, collection, depth + 1);
      return;
    }
    for (const [key, v] of Object.entries(value as Json)) {
      if (typeof v === 'string') {
        if (key === 'id' && collection) this.add(collection, v);
        else if (key !== 'keyId') {
          const kind = kindOf(key);
          if (kind) this.add(kind, v);
        }
      } else if (key === 'data' || key === 'deliverables' || key === 'items' || key === 'pages') {
        this.walk(v, key === 'deliverables' ? 'deliverable' : collection, depth + 1);
      } else {
        this.walk(v, undefined, depth + 1);
      }
    }
  }

  private add(kind: string, id: string): void {
    const list = this.ids.get(kind) ?? [];
    if (list.includes(id)) return;
    list.push(id);
    if (list.length > PER_KIND) list.shift();
    this.ids.set(kind, list);
  }
}

function kindOf(name: string): string | undefined {
  if (name === 'token' || name === 'shareToken') return 'token';
  const m = /^([a-z][A-Za-z]*?)Ids?$/.exec(name);
  return m?.[1] === 'libraryItem' ? 'item' : m?.[1];
}

function lastCollection(template: string): string {
  const literal = template.split('/').filter((s) => s && !s.startsWith('{'));
  return literal[literal.length - 1] ?? '';
}
