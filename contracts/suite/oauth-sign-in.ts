import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expectThat, SkipSignal } from '../shared/outcomes.js';
import type { Session } from './session.js';

const run = promisify(execFile);

/**
 * A user signing in at an authorization URL, without a browser: the URL the user agent is
 * sent back to (the client's redirect URI with `code` or `error`). On the simulator the
 * sign-in page is filled in with the API key given (its form: request_id, csrf_token and
 * the CSRF cookie, api_key, decision=approve); against another server the command in
 * CONTRACT_OAUTH_SIGN_IN does it, getting the URL as its argument and printing the result.
 */
export async function signIn(s: Session, authorizeUrl: string, apiKey: string, decision: 'approve' | 'deny' = 'approve'): Promise<URL> {
  const url = new URL(authorizeUrl);
  if (s.control) return simulatorSignIn(s, url, apiKey, decision);
  if (decision === 'deny') throw new SkipSignal('denying a sign-in needs the simulator\'s sign-in page (CONTRACT_OAUTH_SIGN_IN approves)');
  const command = s.config.oauth.signIn;
  if (!command) throw new SkipSignal('signing a user in needs a browser: set CONTRACT_OAUTH_SIGN_IN to a command that does it');
  // The URL goes through the environment, so that no shell splits it at its '&'.
  const { stdout } = await run('/bin/sh', ['-c', `${command} "$CONTRACT_OAUTH_AUTHORIZE_URL"`], { env: { ...process.env, CONTRACT_OAUTH_AUTHORIZE_URL: url.href, CONTRACT_OAUTH_SIGN_IN_KEY: apiKey }, timeout: 120_000 });
  const last = stdout.trim().split('\n').at(-1) ?? '';
  if (!URL.canParse(last)) throw new Error(`CONTRACT_OAUTH_SIGN_IN printed no URL as its last line: ${JSON.stringify(stdout.slice(-200))}`);
  return new URL(last);
}

/** Where an answer of the authorization endpoint sends the user agent, if anywhere. */
export async function redirectOf(s: Session, path: string, init: RequestInit = {}): Promise<{ status: number; location: URL | null; body: string; headers: Headers }> {
  const res = await s.client.raw(path, { ...init, redirect: 'manual' });
  const body = await res.text();
  const location = res.headers.get('location');
  return { status: res.status, location: location ? new URL(location, s.config.baseUrl) : null, body, headers: res.headers };
}

async function simulatorSignIn(s: Session, url: URL, apiKey: string, decision: 'approve' | 'deny'): Promise<URL> {
  const page = await redirectOf(s, `${url.pathname}${url.search}`);
  if (page.location) return page.location; // refused before any sign-in (an error redirect)
  const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(page.body)?.[1];
  const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const [requestId, csrf] = [field('request_id'), field('csrf_token')];
  expectThat(page.status === 200 && requestId && csrf, `OAuth 2.1: the authorization endpoint shows a sign-in page for a valid request: got ${page.status} ${page.body.slice(0, 160)}`);
  const form = new URLSearchParams({ request_id: requestId!, csrf_token: csrf!, api_key: apiKey, decision });
  const decided = await redirectOf(s, url.pathname, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie }, body: form.toString() });
  expectThat(decided.location, `OAuth 2.1: ${decision === 'approve' ? 'approving' : 'denying'} the sign-in sends the user agent back to the client: got ${decided.status} ${decided.body.slice(0, 160)}`);
  return decided.location!;
}
