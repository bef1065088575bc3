import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serviceDocument } from '../contract/openapi.generated.js';

export interface StaticPage {
  status: number;
  headers: Record<string, string>;
  body: string | Buffer;
}

/** Only what the docs page needs, from this server: no CDN, no inline script. */
const DOCS_CSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; frame-ancestors 'none'";

const DOCS_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Content Generation Service API: reference and try-it console</title>
</head>
<body>
<script id="api-reference" data-url="/openapi.json" data-configuration='{"withDefaultFonts":false,"telemetry":false,"showDeveloperTools":"never","agent":{"disabled":true},"mcp":{"disabled":true}}'></script>
<script src="/docs/scalar.js"></script>
</body>
</html>
`;

/** What a new user opening the base address in a browser sees: where everything is. */
const LANDING_HTML = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Content Generation Service simulator</title></head>
<body>
<h1>Content Generation Service simulator</h1>
<ul>
<li><a href="/docs">API reference</a>, with a try-it console that calls this simulator</li>
<li><a href="/openapi.yaml">openapi.yaml</a> (<a href="/openapi.json">JSON</a>): the service's contract; the API is under <code>/api/v1</code></li>
<li><a href="/simulator-control.yaml">simulator-control.yaml</a>: the simulator's own control API under <code>/_sim</code> (clock, accounts, journal, faults, reset)</li>
<li><a href="/healthz">/healthz</a> and <a href="/readyz">/readyz</a>: health probes</li>
</ul>
</body>
</html>
`;

/** The folder that holds openapi.yaml: the package root, from the sources or from dist. */
function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'openapi.yaml')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

const root = packageRoot();
const cache = new Map<string, Buffer>();

function file(...candidates: string[]): Buffer | undefined {
  for (const path of candidates) {
    const cached = cache.get(path);
    if (cached) return cached;
    if (!existsSync(path)) continue;
    const content = readFileSync(path);
    cache.set(path, content);
    return content;
  }
  return undefined;
}

/**
 * The contract documents, the interactive API reference at /docs, and / sending a new user
 * there: pages the server adapters (CLI, express) serve around the engine, which stays free
 * of files. The reference's try-it console calls this simulator: the served contract names
 * the address the browser used as its server.
 */
export function staticPage(method: string, path: string, host: string | undefined): StaticPage | undefined {
  if (method !== 'GET' && method !== 'HEAD') return undefined;
  switch (path) {
    case '/':
      return { status: 200, headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': "default-src 'none'; frame-ancestors 'none'" }, body: LANDING_HTML };
    case '/openapi.yaml':
    case '/simulator-control.yaml': {
      const yaml = file(join(root, path));
      return yaml ? { status: 200, headers: { 'content-type': 'application/yaml; charset=utf-8' }, body: yaml } : undefined;
    }
    case '/openapi.json': {
      const servers = host && /^[A-Za-z0-9.[\]:-]+$/.test(host) ? [{ url: `http://${host}`, description: 'This simulator' }] : undefined;
      const doc = servers ? { ...(serviceDocument as Record<string, unknown>), servers } : serviceDocument;
      return { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify(doc) };
    }
    case '/favicon.ico':
      // Browsers ask for it on every page: no icon, and no 404 in their console.
      return { status: 204, headers: { 'cache-control': 'public, max-age=86400' }, body: '' };
    case '/docs':
      return { status: 200, headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': DOCS_CSP, 'x-content-type-options': 'nosniff' }, body: DOCS_HTML };
    case '/docs/scalar.js': {
      const bundle = file(join(root, 'dist/web/scalar.js'), join(root, 'node_modules/@scalar/api-reference/dist/browser/standalone.js'));
      return bundle
        ? { status: 200, headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=3600', 'x-content-type-options': 'nosniff' }, body: bundle }
        : undefined;
    }
    default:
      return undefined;
  }
}
