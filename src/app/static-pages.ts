import { controlDocument, serviceDocument } from '../contract/openapi.generated.js';
import type { AssetSource } from './assets.js';
import { DOCS_CSP, docsPage } from './docs-page.js';

export interface StaticPage {
  status: number;
  headers: Record<string, string>;
  body: string | Uint8Array;
}

/** The dashboard's page and modules: this server's only, no inline script or style. */
const DASHBOARD_CSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";
const DASHBOARD_ASSET = /^\/dashboard\/([a-z-]+\.(js|css))$/;
const ASSET_TYPES: Record<string, string> = { js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8', html: 'text/html; charset=utf-8' };

/** Whether `path` may be a page: a cheap test that keeps the API's paths off the switch below. */
export function mayBePage(path: string): boolean {
  return !path.startsWith('/api/') && !path.startsWith('/_sim');
}

/**
 * The contract documents, the interactive API reference at /docs, the dashboard at /, from
 * `assets`. The reference's try-it console calls this simulator: the served contract names
 * the address the browser used as its server; `demoKey` tells the key its console may start
 * with (see docs-page.ts), asked only when /docs is.
 */
export function staticPage(method: string, path: string, host: string | undefined, assets: AssetSource, demoKey: () => string | undefined = () => undefined): StaticPage | undefined {
  if (method !== 'GET' && method !== 'HEAD') return undefined;
  switch (path) {
    case '/':
      return dashboardFile('index.html', assets);
    case '/openapi.yaml':
    case '/simulator-control.yaml': {
      const yaml = assets.read(path.slice(1));
      return yaml === undefined ? undefined : { status: 200, headers: { 'content-type': 'application/yaml; charset=utf-8' }, body: yaml };
    }
    case '/openapi.json':
    case '/simulator-control.json': {
      // Each contract as JSON, its server the address the client used: the /docs console calls this simulator.
      const servers = host && /^[A-Za-z0-9.[\]:-]+$/.test(host) ? [{ url: `http://${host}`, description: 'This simulator' }] : undefined;
      const document = (path === '/openapi.json' ? serviceDocument : controlDocument) as Record<string, unknown>;
      return { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify(servers ? { ...document, servers } : document) };
    }
    case '/favicon.ico':
      // Browsers ask for it on every page: no icon, and no 404 in their console.
      return { status: 204, headers: { 'cache-control': 'public, max-age=86400' }, body: '' };
    case '/docs': {
      const page = docsPage(demoKey());
      return { status: 200, headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': DOCS_CSP, 'x-content-type-options': 'nosniff', ...page.headers }, body: page.body };
    }
    case '/docs/scalar.js': {
      const bundle = assets.read('docs/scalar.js');
      return bundle === undefined
        ? undefined
        : { status: 200, headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=3600', 'x-content-type-options': 'nosniff' }, body: bundle };
    }
    default: {
      const asset = DASHBOARD_ASSET.exec(path);
      return asset ? dashboardFile(asset[1] as string, assets) : undefined;
    }
  }
}

/** A file of the dashboard (src/web/dashboard, copied to dist/web/dashboard by the build). */
function dashboardFile(name: string, assets: AssetSource): StaticPage | undefined {
  const content = assets.read(`dashboard/${name}`);
  if (content === undefined) return undefined;
  const type = ASSET_TYPES[name.slice(name.lastIndexOf('.') + 1)] as string;
  return { status: 200, headers: { 'content-type': type, 'content-security-policy': DASHBOARD_CSP, 'x-content-type-options': 'nosniff', 'cache-control': 'no-cache' }, body: content };
}
