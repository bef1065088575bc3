import { OAuthError } from './oauth-errors.js';
import type { OAuthStore } from './oauth-store.js';
import { cacheLifetimeMs, clientFromDocument, isMetadataDocumentId, metadataUrlProblem, type DocumentFetcher } from './client-metadata.js';
import { admitClient } from './registration.js';

/**
 * The clients that name themselves by a metadata document: fetched when a sign-in or a token
 * request names one (unless a fresh copy is kept, as its response's caching headers allow),
 * checked, and kept as a client like a registered one. The OAuth endpoints answer synchronously,
 * so the fetch happens just before them (`prepare`), and what went wrong is kept a moment for
 * them to tell (`refusal`): an OAuth error, never a fetch of anything the rules forbid.
 *
 * Off until the host supplies a fetcher (the node:http adapters do); without one the server's
 * metadata says documents are not supported and a URL client_id is an unknown client.
 */
const MAX_REMEMBERED = 1_000;
const REFUSAL_MS = 60_000;
/** Documents fetched at once, all clients together: a flood of sign-in links cannot open more. */
const MAX_IN_FLIGHT = 16;

export interface MetadataDocumentsOptions {
  fetch: DocumentFetcher;
  /** Accept `http://` documents on loopback hosts (local testing). Default false. */
  allowLoopbackHttp?: boolean;
}

export class ClientMetadataDocuments {
  private options?: MetadataDocumentsOptions;
  /** client_id → real time until which its copy is fresh. */
  private readonly freshUntil = new Map<string, number>();
  /** client_id → why it was refused, and until when (real time) that is told. */
  private readonly refusals = new Map<string, { reason: string; until: number }>();
  /** Fetches under way: a second request for the same document waits for the first. */
  private readonly inFlight = new Map<string, Promise<void>>();

  constructor(
    private readonly store: OAuthStore,
    private readonly realNow: () => number,
  ) {}

  enable(options: MetadataDocumentsOptions): void {
    this.options = options;
  }

  get enabled(): boolean {
    return this.options !== undefined;
  }

  /** Fetches (or keeps) the client a URL client_id names; a refusal is remembered for `refusal`. */
  async prepare(clientId: string | null, now: number): Promise<void> {
    if (!this.options || !clientId || !isMetadataDocumentId(clientId)) return;
    if ((this.freshUntil.get(clientId) ?? 0) > this.realNow() && this.store.clients.has(clientId)) return;
    const pending = this.inFlight.get(clientId);
    if (pending) return pending;
    if (this.inFlight.size >= MAX_IN_FLIGHT) {
      remember(this.refusals, clientId, { reason: 'The server is fetching as many client metadata documents as it may at once: try again in a moment.', until: this.realNow() + 1_000 });
      return;
    }
    const fetching = this.fetch(clientId, now).finally(() => this.inFlight.delete(clientId));
    this.inFlight.set(clientId, fetching);
    return fetching;
  }

  private async fetch(clientId: string, now: number): Promise<void> {
    const options = this.options as MetadataDocumentsOptions;
    const realNow = this.realNow();
    try {
      const problem = metadataUrlProblem(clientId, options.allowLoopbackHttp === true);
      if (problem) throw new OAuthError('invalid_client', `The client_id ${clientId} ${problem}.`);
      const fetched = await options.fetch(new URL(clientId));
      const client = clientFromDocument(clientId, fetched, now);
      const known = this.store.clients.get(clientId);
      if (known) Object.assign(known, { clientName: client.clientName, redirectUris: client.redirectUris });
      else admitClient(this.store.clients, client, now);
      remember(this.freshUntil, clientId, realNow + cacheLifetimeMs(fetched.headers, realNow));
      this.refusals.delete(clientId);
    } catch (error) {
      if (!(error instanceof OAuthError)) throw error;
      // A document that no longer passes stops being a client: its sign-ins and tokens stop.
      this.freshUntil.delete(clientId);
      this.store.clients.delete(clientId);
      remember(this.refusals, clientId, { reason: error.description, until: realNow + REFUSAL_MS });
    }
  }

  /** Why the document a client_id names was refused just now, if it was. */
  refusal(clientId: string): string | undefined {
    const refused = this.refusals.get(clientId);
    return refused && refused.until > this.realNow() ? refused.reason : undefined;
  }
}

/** Bounded: the oldest entry goes when a new one would pass the most. */
function remember<V>(table: Map<string, V>, key: string, value: V): void {
  table.delete(key);
  if (table.size >= MAX_REMEMBERED) table.delete(table.keys().next().value as string);
  table.set(key, value);
}
