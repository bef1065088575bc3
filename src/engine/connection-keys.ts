import { authenticate, callerOfKey, type Caller } from '../auth/authenticate.js';
import { constantTimeEqual } from '../credentials/constant-time.js';
import type { Store } from '../store/store.js';
import type { ApiKeyRecord } from '../store/records.js';

/**
 * The key a connection authenticated with last, so that a client sending the same
 * Authorization header again on it (every keep-alive client) is not hashed and looked up anew.
 * The header is compared with the one remembered in constant time: behind a proxy that pools
 * connections, the one remembered may be another client's. The record must still be the one
 * the store holds (a reset or restore replaces it), and it is checked again for revocation and
 * its account on every call, as a looked-up key is.
 */
export class ConnectionKeys {
  private readonly known = new WeakMap<object, { authorization: string; key: ApiKeyRecord }>();

  constructor(private readonly store: () => Store) {}

  authenticate(authorization: string | undefined, connection: object | undefined): Caller {
    const store = this.store();
    if (connection === undefined || authorization === undefined) return authenticate(store, authorization);
    const seen = this.known.get(connection);
    if (seen !== undefined && constantTimeEqual(seen.authorization, authorization) && store.holdsKey(seen.key)) return callerOfKey(store, seen.key);
    const caller = authenticate(store, authorization);
    this.known.set(connection, { authorization, key: caller.key });
    return caller;
  }
}
