import { accountOfKey, authenticate, keyPrincipal } from '../auth/authenticate.js';
import type { Principal } from '../auth/principal.js';
import { constantTimeEqual } from '../credentials/constant-time.js';
import type { Store } from '../store/store.js';

interface Known {
  authorization: string;
  /** The principal made for it, reused while its key and account are the store's. */
  principal: Principal;
}

/**
 * The key a connection authenticated with last, so that a client sending the same
 * Authorization header again on it (every keep-alive client) is not hashed and looked up anew,
 * and gets the same principal: nothing is made for it. The header is compared with the one
 * remembered in constant time: behind a proxy that pools connections, the one remembered may be
 * another client's. The record must still be the one the store holds (a reset or restore
 * replaces it), and it is checked again for revocation and its account on every call, as a
 * looked-up key is.
 */
export class ConnectionKeys {
  private readonly known = new WeakMap<object, Known>();

  constructor(private readonly store: () => Store) {}

  authenticate(authorization: string | undefined, connection: object | undefined): Principal {
    const store = this.store();
    if (connection === undefined || authorization === undefined) return keyPrincipal(authenticate(store, authorization));
    const seen = this.known.get(connection);
    const key = seen?.principal.key;
    if (seen !== undefined && key !== undefined && constantTimeEqual(seen.authorization, authorization) && store.holdsKey(key)) {
      const account = accountOfKey(store, key);
      if (account !== seen.principal.account) seen.principal = keyPrincipal({ account, key });
      return seen.principal;
    }
    const principal = keyPrincipal(authenticate(store, authorization));
    this.known.set(connection, { authorization, principal });
    return principal;
  }
}
