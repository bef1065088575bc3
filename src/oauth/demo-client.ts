import type { OAuthClient } from './oauth-records.js';

/**
 * The client every simulator knows from the start, for trying the sign-in by hand: its
 * redirect URIs are loopback ones. It is never evicted nor expired.
 */
export const DEMO_CLIENT_ID = 'content-sim-demo';
export const DEMO_REDIRECT_URIS = ['http://127.0.0.1:8976/callback', 'http://localhost:8976/callback'];

export function demoClient(now: number): OAuthClient {
  return { clientId: DEMO_CLIENT_ID, clientName: 'Content simulator demo client', redirectUris: DEMO_REDIRECT_URIS, issuedAt: now };
}
