/** Facts the engine reads off a request before routing it: its path, and the address a guessing limit counts. */
import { isLoopback } from './control-guard.js';
import type { EngineRequest } from './types.js';

/** `https://api.example.com/api/v1/x?y` → `/api/v1/x?y`: in-process callers may pass a whole URL. */
export function originRelative(url: string): string {
  if (url.startsWith('/')) return url;
  try {
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search}`;
  } catch {
    return url; // not a URL: routed as is, and answered 404
  }
}

/**
 * The address a guessing limit counts, or none: in-process callers (msw, MCP) have no address,
 * and loopback clients are the machine's own users, who can read every secret through `/_sim`
 * anyway. Limiting them would only break local contract runs that check 401s by the hundred.
 */
export function guessingAddress(request: EngineRequest): string | undefined {
  const address = request.remoteAddress;
  return address === undefined || isLoopback(address) ? undefined : address;
}
