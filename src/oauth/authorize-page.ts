import type { OAuthClient, PendingAuthorization } from './oauth-store.js';

/**
 * The sign-in page: who asks, where the browser goes next, which scopes; the user proves
 * who they are with an API key of their account. Self-contained (no external asset), so
 * it works offline, and framed by nobody (`frame-ancestors 'none'`).
 */
export function pageHeaders(redirectOrigin?: string): Record<string, string> {
  // Browsers apply form-action to the redirect that answers the form too: allow the client's origin.
  const formAction = redirectOrigin ? `'self' ${redirectOrigin}` : "'self'";
  return {
    'content-security-policy': `default-src 'none'; style-src 'unsafe-inline'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
  };
}

const SCOPE_TEXT: Record<string, string> = {
  'svc:read': 'read your targets, builds, deliverables, balance and transactions',
  'svc:write': 'create targets and builds (spending tokens), generate images and audio, share deliverables, change the library',
};

export function authorizePage(client: OAuthClient, pending: PendingAuthorization, error?: string): string {
  const host = new URL(pending.redirectUri).host;
  const scopes = pending.scopes.map((s) => `<li><code>${escape(s)}</code>: ${escape(SCOPE_TEXT[s] ?? s)}</li>`).join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in: ${escape(client.clientName)} · Content Generation Service</title>
<style>
  body { font: 16px/1.5 system-ui, sans-serif; background: #f4f5f7; color: #1d2330; margin: 0; }
  main { max-width: 28rem; margin: 3rem auto; background: #fff; border-radius: 12px; padding: 2rem; box-shadow: 0 2px 12px #0002; }
  h1 { font-size: 1.3rem; margin: 0 0 1rem; }
  .host { font-family: ui-monospace, monospace; background: #eef1f6; padding: 0 .3rem; border-radius: 4px; }
  ul { padding-left: 1.2rem; }
  label { display: block; font-weight: 600; margin: 1.2rem 0 .4rem; }
  input[type=password] { width: 100%; box-sizing: border-box; padding: .6rem; font: inherit; border: 1px solid #b8c0cc; border-radius: 6px; }
  .error { background: #fdecec; color: #8a1c1c; padding: .6rem .8rem; border-radius: 6px; }
  /* Approve comes first in the form, so Enter in the key field approves; Deny is drawn on the left. */
  .buttons { display: flex; flex-direction: row-reverse; gap: .8rem; margin-top: 1.4rem; }
  button { flex: 1; padding: .7rem; font: inherit; font-weight: 600; border-radius: 6px; border: 1px solid #b8c0cc; background: #fff; cursor: pointer; }
  button[value=approve] { background: #2451d6; color: #fff; border-color: #2451d6; }
  small { color: #5b6475; }
</style>
</head>
<body>
<main>
  <h1><strong>${escape(client.clientName)}</strong> wants to use the Content Generation Service as you</h1>
  <p>After you approve, your browser returns to <span class="host">${escape(host)}</span>.</p>
  <p>It asks to:</p>
  <ul>${scopes}</ul>
  ${error ? `<p class="error" role="alert">${escape(error)}</p>` : ''}
  <form method="post" action="/oauth/authorize">
    <input type="hidden" name="request_id" value="${escape(pending.id)}">
    <input type="hidden" name="csrf_token" value="${escape(pending.csrf)}">
    <label for="api_key">Sign in with an API key of your account</label>
    <input type="password" id="api_key" name="api_key" autocomplete="off" placeholder="svc_live_…" spellcheck="false">
    <small>The access granted is the scopes asked for that this key also holds.</small>
    <div class="buttons">
      <button type="submit" name="decision" value="approve">Approve</button>
      <button type="submit" name="decision" value="deny">Deny</button>
    </div>
  </form>
</main>
</body>
</html>
`;
}

/** A page that says what is wrong and redirects nowhere (an unknown client or redirect URI). */
export function errorPage(title: string, detail: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:3rem auto;color:#1d2330}</style></head>
<body><h1>${escape(title)}</h1><p>${escape(detail)}</p></body></html>
`;
}

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
