import { matchOperation } from '../shared/exercise-log.js';
import type { OperationInfo } from '../shared/openapi-model.js';
import { header, type HarEntry } from '../shared/har.js';

/** What a recorded credential could do, read from the answers it got. */
export type CredentialRole = 'readWrite' | 'readOnly' | 'writeOnly' | 'revoked';

export const CREDENTIAL_ROLES: readonly CredentialRole[] = ['readWrite', 'readOnly', 'writeOnly', 'revoked'];

interface Evidence {
  readDenied: boolean;
  writeDenied: boolean;
  authenticated: boolean;
  refused: boolean;
}

/**
 * The recording's credentials (the redacted Authorization values) by the role their answers
 * show: a 403 SCOPE_REQUIRED on a write operation means no svc:write, on a read operation no
 * svc:read; a credential that only ever got 401 was revoked (or never valid). A replay gives each
 * the target's credential of the same role. A credential the recording learnt from an answer (a
 * key made with POST /api/v1/keys) is not here: the id map knows it.
 */
export function credentialRoles(entries: readonly HarEntry[], operations: readonly OperationInfo[]): Map<string, CredentialRole> {
  const evidence = new Map<string, Evidence>();
  for (const e of entries) {
    const credential = header(e.request.headers, 'authorization');
    if (!credential) continue;
    const seen = evidence.get(credential) ?? { readDenied: false, writeDenied: false, authenticated: false, refused: false };
    evidence.set(credential, seen);
    // An MCP tool call is the operation its tool is named for; its scope error is an isError result.
    const tool = toolOf(e);
    const op = tool ? operations.find((o) => o.id === tool) : matchOperation(operations, e.request.method, pathOf(e.request.url));
    const status = tool && e.response.status === 200 && /"isError"\s*:\s*true/.test(e.response.content.text ?? '') ? 403 : e.response.status;
    const code = /"code"\s*:\s*"([A-Z_]+)"/.exec(e.response.content.text ?? '')?.[1];
    // REST's SCOPE_REQUIRED, or the insufficient_scope challenge an OAuth token gets on /mcp.
    const scopeError = status === 403 && (code === 'SCOPE_REQUIRED' || /insufficient_scope/.test(header(e.response.headers, 'www-authenticate') ?? ''));
    if (status === 401) seen.refused = true;
    else if (scopeError && op?.scope === 'svc:write') seen.writeDenied = true;
    else if (scopeError && op?.scope === 'svc:read') seen.readDenied = true;
    else if (status < 500) seen.authenticated = true;
  }
  const roles = new Map<string, CredentialRole>();
  for (const [credential, e] of evidence) {
    if (e.refused && !e.authenticated && !e.readDenied && !e.writeDenied) roles.set(credential, 'revoked');
    else if (e.writeDenied && !e.readDenied) roles.set(credential, 'readOnly');
    else if (e.readDenied && !e.writeDenied) roles.set(credential, 'writeOnly');
    else roles.set(credential, 'readWrite');
  }
  return roles;
}

/** The tool an MCP `tools/call` request calls (named by its operationId), if the entry is one. */
function toolOf(e: HarEntry): string | undefined {
  if (!/\/mcp(\?|$)/.test(pathOf(e.request.url)) || !e.request.postData?.text) return undefined;
  try {
    const message = JSON.parse(e.request.postData.text) as { method?: unknown; params?: { name?: unknown } };
    return message.method === 'tools/call' && typeof message.params?.name === 'string' ? message.params.name : undefined;
  } catch {
    return undefined;
  }
}

/** The path and query of a recorded URL (absolute in HAR). */
export function pathOf(url: string): string {
  if (url.startsWith('/')) return url;
  try {
    const u = new URL(url);
    return `${u.pathname}${u.search}`;
  } catch {
    return url;
  }
}
