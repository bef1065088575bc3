import { startRewritingProxy, type RunningProxy } from './rewriting-proxy.js';

/**
 * A loopback proxy that adds `Authorization: Bearer <credential>` to every request, for
 * tools (the MCP conformance runner) that cannot send a credential themselves. It keeps
 * the client's Host header so that the DNS-rebinding checks see what the client sent.
 */
export function startAuthProxy(target: string, credential: string): Promise<RunningProxy> {
  return startRewritingProxy(target, { request: (req) => ({ ...req.headers, authorization: `Bearer ${credential}` }) });
}
