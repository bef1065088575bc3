import { isLoopback } from '../engine/control-guard.js';
import type { EngineRequest } from '../engine/types.js';
import type { Simulator } from '../simulator.js';

/** Only what the docs page needs, from this server: no CDN, no inline script. */
export const DOCS_CSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; frame-ancestors 'none'";

/**
 * The Authentication bar's two halves ("Authentication Required" and the scheme picker) share
 * one row that clips the first behind the second when the column is narrow: here the label keeps
 * its width and the picker goes to the next line when both do not fit.
 */
const AUTH_BAR = 'div:has(> button [data-testid="auth-indicator"])';
// !important: Scalar's own utility classes are more specific than anything a page can add.
const CUSTOM_CSS = `${AUTH_BAR} { flex-wrap: wrap !important; }
${AUTH_BAR} > button { flex: 1 0 auto !important; }
${AUTH_BAR} > div { margin-left: auto !important; }
${AUTH_BAR} > div button { width: auto !important; white-space: nowrap !important; }`;

/** The two contracts the page renders, picked from its header: the service API first, the control API (`/_sim`) beside it. */
export const DOCS_SOURCES = [
  { title: 'Service API', slug: 'service-api', url: '/openapi.json', default: true },
  { title: 'Simulator control API (/_sim)', slug: 'control-api', url: '/simulator-control.json' },
];

/** Scalar's settings: nothing phones home, no AI features, the developer tools hidden. */
const SETTINGS = { sources: DOCS_SOURCES, withDefaultFonts: false, telemetry: false, showDeveloperTools: 'never', agent: { disabled: true }, mcp: { disabled: true }, customCss: CUSTOM_CSS };

/**
 * The API reference page. With `demoKey`, its try-it console starts with that key as the
 * bearer token (Scalar's `authentication` setting; `persistAuth` stays off, so the browser
 * keeps it nowhere), and the page is never cached.
 */
export function docsPage(demoKey: string | undefined): { headers: Record<string, string>; body: string } {
  const settings = demoKey === undefined
    ? SETTINGS
    : { ...SETTINGS, authentication: { preferredSecurityScheme: 'bearerAuth', securitySchemes: { bearerAuth: { token: demoKey } } } };
  // In a single-quoted attribute: the few characters that could end it or start markup are escaped.
  const attribute = JSON.stringify(settings).replace(/[&'<>]/g, (c) => `&#${c.charCodeAt(0)};`);
  const body = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Content Generation Service API and simulator control API: reference and try-it console</title>
</head>
<body>
<script id="api-reference" data-url="/openapi.json" data-configuration='${attribute}'></script>
<script src="/docs/scalar.js"></script>
</body>
</html>
`;
  return { headers: { 'cache-control': demoKey === undefined ? 'no-cache' : 'no-store' }, body };
}

/**
 * The seeded read+write key, for a page asked for from this machine only: the client's
 * address is loopback (an adapter that gives none does not count: the key is never guessed
 * out to the network) and so is the name it asked for (`Host`), which a page on a domain
 * rebound to 127.0.0.1 cannot fake. Undefined when the simulator no longer holds the key
 * (a restored state, a revoked key).
 */
export function loopbackDemoKey(simulator: Simulator, request: Pick<EngineRequest, 'remoteAddress' | 'headers'>): string | undefined {
  if (request.remoteAddress === undefined || !isLoopback(request.remoteAddress)) return undefined;
  if (!isLoopbackHost(request.headers.host)) return undefined;
  const key = simulator.keys.readWrite;
  const record = simulator.internal.store.findKey(key);
  return record && record.revokedAt === null ? key : undefined;
}

/** `localhost`, `127.x.x.x` or `[::1]`, any port. */
function isLoopbackHost(host: string | undefined): boolean {
  if (host === undefined) return false;
  const name = (host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0] ?? '').toLowerCase();
  return name === 'localhost' || name === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name);
}
