#!/usr/bin/env node
// A CONTRACT_OAUTH_SIGN_IN command, as a team would write one for its own authorization
// server (usually with a browser driver): it gets the authorization URL, signs a user in with
// the API key the suite names (CONTRACT_OAUTH_SIGN_IN_KEY) on the simulator's sign-in page, approves, and prints the
// URL the browser is sent back to. Used by test/contract-oauth-hook.test.ts.
const url = new URL(process.argv[2] ?? process.env.CONTRACT_OAUTH_AUTHORIZE_URL);
const page = await fetch(url, { redirect: 'manual' });
const html = await page.text();
if (page.headers.get('location')) {
  console.log(new URL(page.headers.get('location'), url).href);
  process.exit(0);
}
const field = (name) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? '';
const form = new URLSearchParams({ request_id: field('request_id'), csrf_token: field('csrf_token'), api_key: process.env.CONTRACT_OAUTH_SIGN_IN_KEY ?? '', decision: 'approve' });
const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0];
const decided = await fetch(new URL(url.pathname, url), { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie }, body: form });
const location = decided.headers.get('location');
if (!location) {
  console.error(`sign-in refused: ${decided.status}`);
  process.exit(1);
}
console.log(new URL(location, url).href);
