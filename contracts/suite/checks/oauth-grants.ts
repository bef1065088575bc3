import type { Check } from '../check.js';
import { expectEqual, expectThat, SkipSignal } from '../../shared/outcomes.js';
import { expectStatus, expectSuccess } from './expect.js';
import { mcpStatus } from './oauth.js';

/**
 * The account's OAuth grants (inferred by openapi.yaml): a grant made with a key is listed with
 * its client, scopes and key, and revoking it refuses its access token on /mcp at once. Needs
 * tokens made for a key of this run, so only where `/_sim/oauth/tokens` can mint them.
 */
const GRANTS = 'openapi.yaml: GET /api/v1/oauth/grants lists a grant with its client, scopes and key; DELETE revokes it, its access token is refused on /mcp at once, and the list no longer shows it';

const ACROSS = 'openapi.yaml: grants belong to their account: another account\'s grant is not listed, revoking it is 404 NOT_FOUND, and its token keeps working';

export const FOLLOWS_KEY = 'openapi.yaml: OAuthGrant.keyId: a grant follows the API key typed at sign-in: rotating that key, or revoking it, revokes the grant (its access token refused on /mcp at once, the grant no longer listed)';

export function oauthGrantChecks(): Check[] {
  return [
    {
      id: 'oauth.grants-follow-key',
      title: FOLLOWS_KEY,
      level: 'strict',
      covers: ['listOAuthGrants', 'rotateApiKey', 'revokeApiKey'],
      requests: 16,
      run: async (s) => {
        if (!s.control) throw new SkipSignal('minting a grant for a key of this run needs the simulator\'s /_sim/oauth/tokens');
        for (const how of ['rotateApiKey', 'revokeApiKey'] as const) {
          const key = await s.client.op('createApiKey', {}, { body: { name: `${s.config.runId} grant ended by ${how}`, scopes: ['svc:read'] } });
          expectStatus(key, 201, `${FOLLOWS_KEY}: a key to sign in with`);
          let successor: string | undefined;
          try {
            const minted = await s.client.raw('/_sim/oauth/tokens', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ apiKey: key.json.value }) });
            if (minted.status === 404) throw new SkipSignal('the server has no OAuth authorization server');
            expectEqual(minted.status, 201, `${FOLLOWS_KEY}: minting tokens for the run's key`);
            const tokens = await minted.json();
            expectEqual(await mcpStatus(s, tokens.access_token), 200, `${FOLLOWS_KEY}: /mcp with the grant's access token, before ${how}`);
            const ended = await s.client.op(how, { keyId: key.json.id });
            expectSuccess(ended, `${FOLLOWS_KEY}: ${how}`);
            if (how === 'rotateApiKey') successor = ended.json?.id;
            expectEqual(await mcpStatus(s, tokens.access_token), 401, `${FOLLOWS_KEY}: /mcp with the grant's access token after ${how} of its key`);
            const listed = await s.client.op('listOAuthGrants', {});
            expectStatus(listed, 200, `${FOLLOWS_KEY}: the list`);
            const kept = (listed.json.data as { id: string; keyId: string }[]).filter((g) => g.keyId === key.json.id);
            expectEqual(kept, [], `${FOLLOWS_KEY}: grants of the key still listed after ${how}`);
          } finally {
            for (const keyId of [key.json.id, successor]) if (keyId) await s.client.op('revokeApiKey', { keyId }).catch(() => undefined);
          }
        }
      },
    },
    {
      id: 'oauth.grants-isolation',
      title: ACROSS,
      level: 'strict',
      roles: ['empty'],
      covers: ['listOAuthGrants', 'revokeOAuthGrant'],
      requests: 8,
      run: async (s) => {
        if (!s.control) throw new SkipSignal('minting a grant for the second account needs the simulator\'s /_sim/oauth/tokens');
        const minted = await s.client.raw('/_sim/oauth/tokens', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ apiKey: s.keys.empty, scopes: ['svc:read'] }) });
        if (minted.status === 404) throw new SkipSignal('the server has no OAuth authorization server');
        const tokens = await minted.json();
        const theirs = await s.client.op('listOAuthGrants', {}, { as: 'empty' });
        expectStatus(theirs, 200, `${ACROSS}: the second account's list`);
        const grant = (theirs.json.data as { id: string; clientId: string }[]).find((g) => g.clientId === tokens.client_id);
        expectThat(grant, `${ACROSS}: the second account does not list its own grant`);
        const mine = await s.client.op('listOAuthGrants', {});
        expectThat(!(mine.json.data as { id: string }[]).some((g) => g.id === grant!.id), `${ACROSS}: the main account lists the second account's grant`);
        const revoked = await s.client.op('revokeOAuthGrant', { grantId: grant!.id });
        expectEqual([revoked.status, revoked.json?.code], [404, 'NOT_FOUND'], `${ACROSS}: revoking the second account's grant`);
        expectEqual(await mcpStatus(s, tokens.access_token), 200, `${ACROSS}: /mcp with the second account's token after the attempt`);
        await s.client.op('revokeOAuthGrant', { grantId: grant!.id }, { as: 'empty' });
      },
    },
    {
      id: 'oauth.grants',
      title: GRANTS,
      level: 'strict',
      covers: ['listOAuthGrants', 'revokeOAuthGrant'],
      requests: 9,
      run: async (s) => {
        if (!s.control) throw new SkipSignal('minting a grant for a key of this run needs the simulator\'s /_sim/oauth/tokens');
        const key = await s.client.op('createApiKey', {}, { body: { name: `${s.config.runId} oauth grant`, scopes: ['svc:read'] } });
        expectStatus(key, 201, GRANTS);
        try {
          const minted = await s.client.raw('/_sim/oauth/tokens', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ apiKey: key.json.value }) });
          if (minted.status === 404) throw new SkipSignal('the server has no OAuth authorization server');
          const tokens = await minted.json();
          expectEqual(minted.status, 201, `${GRANTS}: minting tokens for the run's key`);
          const listed = await s.client.op('listOAuthGrants', {});
          expectStatus(listed, 200, `${GRANTS}: the list`);
          const grant = (listed.json.data as { id: string; keyId: string; clientId: string; scopes: string[] }[]).find((g) => g.keyId === key.json.id);
          expectThat(grant, `${GRANTS}: no grant of key ${key.json.id} in the list`);
          expectEqual([grant!.clientId, grant!.scopes], [tokens.client_id, ['svc:read']], `${GRANTS}: the grant's client and scopes`);
          expectEqual(await mcpStatus(s, tokens.access_token), 200, `${GRANTS}: /mcp with the grant's access token`);
          const revoked = await s.client.op('revokeOAuthGrant', { grantId: grant!.id });
          expectStatus(revoked, 200, `${GRANTS}: the revocation`);
          expectEqual(revoked.json.status, 'revoked', `${GRANTS}: the revoked grant's status`);
          expectEqual(await mcpStatus(s, tokens.access_token), 401, `${GRANTS}: /mcp with a revoked grant's access token`);
          const after = await s.client.op('listOAuthGrants', {});
          expectThat(!(after.json.data as { id: string }[]).some((g) => g.id === grant!.id), `${GRANTS}: the revoked grant is still listed`);
        } finally {
          await s.client.op('revokeApiKey', { keyId: key.json.id }).catch(() => undefined);
        }
      },
    },
  ];
}
