import { describe, expect, it } from 'vitest';
import { cacheLifetimeMs, clientFromDocument, metadataUrlProblem } from './client-metadata.js';
import { OAuthError } from './oauth-errors.js';

describe('client ID metadata document rules', () => {
  it('takes an https URL with a path, and refuses what the draft forbids', () => {
    expect(metadataUrlProblem('https://app.example.com/oauth/client.json', false)).toBeNull();
    expect(metadataUrlProblem('http://app.example.com/client.json', false)).toMatch(/https/);
    expect(metadataUrlProblem('http://127.0.0.1:8080/client.json', false)).toMatch(/https/);
    expect(metadataUrlProblem('http://127.0.0.1:8080/client.json', true)).toBeNull();
    expect(metadataUrlProblem('http://10.0.0.1/client.json', true)).toMatch(/https \(or http on a loopback host\)/);
    expect(metadataUrlProblem('https://app.example.com', false)).toMatch(/path/);
    expect(metadataUrlProblem('https://app.example.com/', false)).toMatch(/path/);
    expect(metadataUrlProblem('https://app.example.com/a/../client.json', false)).toMatch(/\.\./);
    expect(metadataUrlProblem('https://app.example.com/a/%2e%2e/client.json', false)).toMatch(/\.\./);
    expect(metadataUrlProblem('https://app.example.com/client.json#x', false)).toMatch(/fragment/);
    expect(metadataUrlProblem('https://app.example.com/client.json?v=1', false)).toMatch(/query/);
    expect(metadataUrlProblem('https://user:pw@app.example.com/client.json', false)).toMatch(/user name/);
    expect(metadataUrlProblem('https://APP.example.com/client.json', false)).toMatch(/normal form/);
  });

  const url = 'https://app.example.com/client.json';
  const answer = (body: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }, status = 200) => ({ status, headers, body: JSON.stringify(body) });
  const good = { client_id: url, client_name: ' Notes ', redirect_uris: ['http://127.0.0.1:3000/cb', 'http://127.0.0.1:3000/cb'] };

  it('reads a sound document into a public client', () => {
    expect(clientFromDocument(url, answer(good), 5)).toEqual({ clientId: url, clientName: 'Notes', redirectUris: ['http://127.0.0.1:3000/cb'], issuedAt: 5 });
  });

  it.each([
    ['another client_id', { ...good, client_id: 'https://evil.example/client.json' }, /names client_id/],
    ['a client secret', { ...good, client_secret: 's' }, /client secret/],
    ['a confidential auth method', { ...good, token_endpoint_auth_method: 'client_secret_basic' }, /public clients only/],
    ['a javascript: redirect URI', { ...good, redirect_uris: ['javascript:alert(1)'] }, /redirect URI/],
    ['no redirect URI', { ...good, redirect_uris: [] }, /redirect_uris/],
    ['an implicit grant', { ...good, grant_types: ['implicit'] }, /grant_types/],
  ])('refuses a document with %s (invalid_client)', (_what, document, reason) => {
    const refused = (() => {
      try {
        clientFromDocument(url, answer(document), 0);
      } catch (error) {
        return error;
      }
    })();
    expect(refused).toBeInstanceOf(OAuthError);
    expect((refused as OAuthError).code).toBe('invalid_client');
    expect((refused as OAuthError).description).toMatch(reason);
  });

  it('refuses a document that is not JSON or not answered 200', () => {
    expect(() => clientFromDocument(url, answer(good, { 'content-type': 'text/html' }), 0)).toThrow(/not application\/json/);
    expect(() => clientFromDocument(url, answer(good, { 'content-type': 'application/json' }, 404), 0)).toThrow(/HTTP 404/);
    expect(() => clientFromDocument(url, { status: 200, headers: { 'content-type': 'application/json' }, body: '{' }, 0)).toThrow(/not valid JSON/);
  });

  it('keeps a document as long as its caching headers say, within bounds', () => {
    expect(cacheLifetimeMs({ 'cache-control': 'public, max-age=60' }, 0)).toBe(60_000);
    expect(cacheLifetimeMs({ 'cache-control': 'max-age=999999999' }, 0)).toBe(24 * 3_600_000);
    expect(cacheLifetimeMs({ 'cache-control': 'no-store' }, 0)).toBe(0);
    expect(cacheLifetimeMs({ 'cache-control': 'no-cache, max-age=60' }, 0)).toBe(0);
    expect(cacheLifetimeMs({ expires: new Date(90_000).toUTCString() }, 30_000)).toBe(60_000);
    expect(cacheLifetimeMs({}, 0)).toBe(5 * 60_000);
  });
});
