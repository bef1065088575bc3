import { outside, ruled, unchecked, type Verdict } from './verdict.js';

/**
 * The requirements of the protocols the server claims to speak that bind a server (an
 * authorization server, a protected resource, an MCP server, a JSON-RPC server, an HTTP origin),
 * each with its section and its keyword, in the protocol's words (shortened where marked …).
 * The documents cannot be fetched at test time: this list is the suite's reading of them, and
 * the source-coverage test holds every entry to a rule, or to a reason why there is none.
 */
export interface ProtocolStatement {
  source: 'OAuth 2.1' | 'RFC 7636' | 'RFC 8414' | 'RFC 9728' | 'RFC 7591' | 'RFC 7009' | 'RFC 8707' | 'RFC 9207' | 'MCP 2025-11-25' | 'MCP 2025-06-18' | 'MCP 2025-03-26' | 'MCP 2024-11-05' | 'JSON-RPC 2.0' | 'RFC 9110';
  section: string;
  keyword: 'MUST' | 'MUST NOT' | 'REQUIRED' | 'SHOULD' | 'SHOULD NOT';
  text: string;
  verdict: Verdict;
}

const NO_CHECK = 'no check of the suite provokes it yet';
const SERVER_SIDE = 'a server-side act no answer shows';
const MCP_REVISIONS = ['MCP 2025-11-25', 'MCP 2025-06-18', 'MCP 2025-03-26', 'MCP 2024-11-05'] as const;

export const PROTOCOL_STATEMENTS: readonly ProtocolStatement[] = [
  // OAuth 2.1 (draft-ietf-oauth-v2-1)
  { source: 'OAuth 2.1', section: '§3.2.3', keyword: 'MUST', text: 'The authorization server MUST include the HTTP "Cache-Control" response header field with a value of "no-store" in any response containing tokens', verdict: ruled('oauth.token-response') },
  { source: 'OAuth 2.1', section: '§3.2.4', keyword: 'REQUIRED', text: 'error: REQUIRED. A single ASCII error code from the following: invalid_request, invalid_client, invalid_grant, unauthorized_client, unsupported_grant_type, invalid_scope', verdict: ruled('oauth.token-errors') },
  { source: 'OAuth 2.1', section: '§4.1.1', keyword: 'MUST', text: 'authorization servers MUST support the code_challenge and code_verifier parameters', verdict: ruled('oauth.pkce-required') },
  { source: 'OAuth 2.1', section: '§4.1.1', keyword: 'MUST NOT', text: 'the plain code_challenge_method … authorization servers … MUST NOT … accept it when the client is capable of S256 (the server publishes S256 only)', verdict: ruled('oauth.pkce-required') },
  { source: 'OAuth 2.1', section: '§4.1.2', keyword: 'MUST', text: 'The authorization code MUST expire shortly after it is issued to mitigate the risk of leaks', verdict: ruled('oauth.code-lifetime') },
  { source: 'OAuth 2.1', section: '§4.1.2', keyword: 'MUST', text: 'If an authorization code is used more than once, the authorization server MUST deny the request and SHOULD revoke (when possible) all access tokens and refresh tokens previously issued based on that authorization code', verdict: ruled('oauth.code-single-use') },
  { source: 'OAuth 2.1', section: '§4.1.2', keyword: 'REQUIRED', text: 'state: REQUIRED if the "state" parameter was present in the client authorization request. The exact value received from the client', verdict: ruled('oauth.state') },
  { source: 'OAuth 2.1', section: '§4.1.2.1', keyword: 'MUST NOT', text: 'If the request fails due to a missing, invalid, or mismatching redirect URI, or if the client identifier is missing or invalid, the authorization server … MUST NOT automatically redirect the user agent to the invalid redirect URI', verdict: ruled('oauth.registration') },
  { source: 'OAuth 2.1', section: '§4.1.2.1', keyword: 'REQUIRED', text: 'error response: error REQUIRED (invalid_request, unauthorized_client, access_denied, unsupported_response_type, invalid_scope, server_error, temporarily_unavailable); state REQUIRED if a "state" parameter was present in the client authorization request', verdict: ruled('oauth.error-redirect') },
  { source: 'OAuth 2.1', section: '§4.1.3', keyword: 'MUST', text: 'the authorization server MUST … ensure that the authorization code was issued to the authenticated confidential client, or if the client is public, ensure that the code was issued to "client_id" in the request', verdict: ruled('oauth.cross-client') },
  { source: 'OAuth 2.1', section: '§4.1.3', keyword: 'MUST', text: 'verify that the authorization code is valid … ensure that the "redirect_uri" parameter is present if the "redirect_uri" parameter was included in the initial authorization request … and if included ensure that their values are identical', verdict: ruled('oauth.redirect-exact') },
  { source: 'OAuth 2.1', section: '§4.1.3', keyword: 'MUST', text: 'If there was a code_challenge in the authorization request … the authorization server MUST verify the code_verifier', verdict: ruled('oauth.pkce-verified') },
  { source: 'OAuth 2.1', section: '§4.3.1', keyword: 'MUST', text: 'Authorization servers MUST utilize one of these methods to detect refresh token replay by malicious actors for public clients: sender-constrained refresh tokens, refresh token rotation', verdict: ruled('oauth.refresh-rotation', 'oauth.refresh-replay') },
  { source: 'OAuth 2.1', section: '§4.3.1', keyword: 'MUST NOT', text: 'The requested scope MUST NOT include any scope not originally granted by the resource owner', verdict: ruled('oauth.refresh-scope') },
  { source: 'OAuth 2.1', section: '§5.2', keyword: 'MUST', text: 'The resource server MUST validate the access token … and ensure that it has not expired and that its scope covers the requested resource', verdict: ruled('mcp.auth.expired', 'mcp.auth.insufficient-scope') },
  { source: 'OAuth 2.1', section: '§5.3.1', keyword: 'SHOULD', text: 'invalid_token: The resource SHOULD respond with the HTTP 401 (Unauthorized) status code; insufficient_scope: The resource server SHOULD respond with the HTTP 403 (Forbidden) status code', verdict: ruled('mcp.auth.expired', 'mcp.auth.insufficient-scope') },
  { source: 'OAuth 2.1', section: '§7.4.1', keyword: 'MUST', text: 'Authorization servers MUST require clients to register their complete redirect URI … and compare them using exact string matching', verdict: ruled('oauth.redirect-exact', 'oauth.registration') },
  { source: 'OAuth 2.1', section: '§7.6', keyword: 'MUST NOT', text: 'the authorization server MUST NOT issue … tokens based on an authorization request a resource owner did not approve (sign-in needed before a code)', verdict: ruled('oauth.denied', 'oauth.csrf') },
  // RFC 7636
  { source: 'RFC 7636', section: '§4.4.1', keyword: 'MUST', text: 'If the server requires Proof Key for Code Exchange (PKCE) by OAuth public clients and the client does not send the "code_challenge" in the request, the authorization endpoint MUST return the authorization error response with the "error" value set to "invalid_request"', verdict: ruled('oauth.pkce-required') },
  { source: 'RFC 7636', section: '§4.6', keyword: 'MUST', text: 'If the values are not equal, an error response indicating "invalid_grant" as described in Section 5.2 of [RFC6749] MUST be returned', verdict: ruled('oauth.pkce-verified', 'oauth.pkce-downgrade') },
  // RFC 8414
  { source: 'RFC 8414', section: '§2', keyword: 'REQUIRED', text: 'issuer, authorization_endpoint, token_endpoint and response_types_supported are REQUIRED metadata', verdict: ruled('oauth.metadata') },
  { source: 'RFC 8414', section: '§3.2', keyword: 'MUST', text: 'A successful response MUST use the 200 OK HTTP status code and return a JSON object using the "application/json" content type', verdict: ruled('oauth.metadata') },
  { source: 'RFC 8414', section: '§3.3', keyword: 'MUST', text: 'The "issuer" value returned MUST be identical to the authorization server\'s issuer identifier value into which the well-known URI string was inserted', verdict: ruled('oauth.metadata') },
  { source: 'RFC 8414', section: '§2', keyword: 'SHOULD', text: 'code_challenge_methods_supported, registration_endpoint, revocation_endpoint: metadata an authorization server that offers them publishes', verdict: ruled('oauth.metadata-complete') },
  // RFC 9728
  { source: 'RFC 9728', section: '§2', keyword: 'REQUIRED', text: 'resource: REQUIRED. The protected resource\'s resource identifier', verdict: ruled('oauth.resource-metadata') },
  { source: 'RFC 9728', section: '§3.3', keyword: 'MUST', text: 'The "resource" value returned MUST be identical to the protected resource\'s resource identifier value into which the well-known URI path suffix was inserted', verdict: ruled('oauth.resource-metadata') },
  { source: 'RFC 9728', section: '§5.1', keyword: 'MUST', text: 'resource_metadata: The URL of the protected resource metadata, in the WWW-Authenticate challenge of a 401', verdict: ruled('oauth.resource-metadata', 'mcp.auth.challenge') },
  // RFC 7591
  { source: 'RFC 7591', section: '§3.2.1', keyword: 'REQUIRED', text: 'client_id: REQUIRED. OAuth 2.0 client identifier string; the server responds with HTTP 201 Created and returns all registered metadata about the client', verdict: ruled('oauth.registration') },
  { source: 'RFC 7591', section: '§3.2.2', keyword: 'MUST', text: 'When an OAuth 2.0 error condition occurs, such as the client presenting an invalid initial access token, the authorization server returns an error response … invalid_redirect_uri, invalid_client_metadata', verdict: ruled('oauth.registration') },
  // RFC 7009
  { source: 'RFC 7009', section: '§2.1', keyword: 'REQUIRED', text: 'token: REQUIRED. The token that the client wants to get revoked', verdict: ruled('oauth.revocation') },
  { source: 'RFC 7009', section: '§2.2', keyword: 'MUST', text: 'The authorization server responds with HTTP status code 200 if the token has been revoked successfully or if the client submitted an invalid token', verdict: ruled('oauth.revocation') },
  { source: 'RFC 7009', section: '§2.1', keyword: 'MUST', text: 'If the server is unable to locate the token using the given hint, it MUST extend its search across all of its supported token types', verdict: ruled('oauth.revocation-kinds') },
  { source: 'RFC 7009', section: '§2.1', keyword: 'SHOULD', text: 'If the token passed to the request is a refresh token and the authorization server supports the revocation of access tokens, then the authorization server SHOULD also invalidate all access tokens based on the same authorization grant', verdict: ruled('oauth.revocation-kinds') },
  // RFC 8707
  { source: 'RFC 8707', section: '§2', keyword: 'MUST', text: 'resource: … Its value MUST be an absolute URI … MUST NOT include a fragment component; invalid_target: The requested resource is invalid, missing, unknown, or malformed', verdict: ruled('oauth.audience') },
  { source: 'RFC 8707', section: '§2', keyword: 'SHOULD', text: 'the authorization server … SHOULD audience-restrict issued access tokens to the resource(s) indicated', verdict: ruled('oauth.audience') },
  // RFC 9207
  { source: 'RFC 9207', section: '§2', keyword: 'MUST', text: 'Authorization servers supporting this specification MUST provide their issuer identifier to clients by including it in the iss parameter of the authorization response, error responses included', verdict: ruled('oauth.iss', 'oauth.error-redirect') },
  { source: 'RFC 9207', section: '§3', keyword: 'REQUIRED', text: 'authorization_response_iss_parameter_supported: whether the authorization server provides the iss parameter in the authorization response', verdict: ruled('oauth.metadata-complete') },
  // MCP: each revision the server serves (the SDK's 2025-11-25, 2025-06-18, 2025-03-26 and 2024-11-05),
  // each held to what it states: Streamable HTTP from 2025-03-26, RFC 9728 authorization and
  // output schemas from 2025-06-18.
  ...MCP_REVISIONS.flatMap((source): ProtocolStatement[] => [
    { source, section: 'Basic, Lifecycle: version negotiation', keyword: 'MUST', text: 'If the server supports the requested protocol version, it MUST respond with the same version. Otherwise, the server MUST respond with another protocol version it supports', verdict: ruled('mcp.versions') },
    { source, section: 'Server, Tools: Capabilities', keyword: 'MUST', text: 'Servers that support tools MUST declare the tools capability', verdict: ruled('mcp.tools.catalogue') },
    { source, section: 'Server, Tools: Error Handling', keyword: 'SHOULD', text: 'Tool Execution Errors: Reported in tool results with isError: true; unknown tools: JSON-RPC error -32602', verdict: ruled('mcp.tools.errors') },
    { source, section: 'Server, Resources: Error Handling', keyword: 'SHOULD', text: 'Resource not found: -32002', verdict: ruled('mcp.resources.read') },
    ...(source === 'MCP 2024-11-05' ? [] : ([
      { source, section: 'Basic, Transports: Streamable HTTP', keyword: 'MUST', text: 'If the input is a JSON-RPC response or notification: If the server accepts the input, the server MUST return HTTP status code 202 Accepted with no body', verdict: ruled('mcp.notification') },
      { source, section: 'Basic, Transports: Session Management', keyword: 'MUST', text: 'The server MUST respond to requests containing a terminated session ID with HTTP 404 Not Found; servers that require a session ID SHOULD respond to requests without an Mcp-Session-Id header (other than initialization) with HTTP 400 Bad Request', verdict: ruled('mcp.session-end') },
      { source, section: 'Basic, Transports: Security Warning', keyword: 'MUST', text: 'Servers MUST validate the Origin header on all incoming connections to prevent DNS rebinding attacks', verdict: ruled('mcp.origin') },
    ] as ProtocolStatement[])),
    ...(source === 'MCP 2024-11-05' || source === 'MCP 2025-03-26' ? [] : ([
      { source, section: 'Basic, Transports: Protocol Version Header', keyword: 'MUST', text: 'If the server receives a request with an invalid or unsupported MCP-Protocol-Version, it MUST respond with 400 Bad Request', verdict: ruled('mcp.versions') },
      { source, section: 'Server, Tools: Output Schema', keyword: 'MUST', text: 'If an output schema is provided: Servers MUST provide structured results that conform to this schema', verdict: ruled('mcp.tool-schemas') },
      { source, section: 'Authorization: Protected Resource Metadata', keyword: 'MUST', text: 'MCP servers MUST implement the OAuth 2.0 Protected Resource Metadata (RFC9728) specification to indicate the locations of authorization servers', verdict: ruled('oauth.resource-metadata') },
      { source, section: 'Authorization: Token Handling', keyword: 'MUST', text: 'MCP servers MUST validate that access tokens were issued specifically for them as the intended audience; Invalid or expired tokens MUST receive a HTTP 401 response', verdict: ruled('mcp.auth.token-audience', 'mcp.auth.expired') },
      { source, section: 'Authorization: Token Passthrough', keyword: 'MUST NOT', text: 'MCP servers MUST NOT accept or transit any other tokens', verdict: ruled('mcp.auth.token-audience') },
      { source, section: 'Authorization: Error Handling', keyword: 'MUST', text: 'MCP servers MUST use the HTTP header WWW-Authenticate when returning a 401 Unauthorized to indicate the location of the resource server metadata URL', verdict: ruled('mcp.auth.challenge') },
    ] as ProtocolStatement[])),
  ]),
  { source: 'MCP 2025-11-25', section: 'Basic, Utilities: Tasks', keyword: 'MUST', text: 'Receivers … MUST bind tasks to the authorization context that created them, and MUST reject tasks/get, tasks/result and tasks/cancel for a task of another context', verdict: ruled('mcp.tasks') },
  { source: 'MCP 2025-11-25', section: 'Basic, Utilities: Tasks', keyword: 'MUST', text: 'Receivers that support task-augmented requests MUST declare the tasks capability, and MUST return a CreateTaskResult with a task id and status for a request augmented with a task', verdict: ruled('mcp.tasks') },
  { source: 'MCP 2025-11-25', section: 'Server, Prompts', keyword: 'MUST', text: 'Servers that support prompts MUST declare the prompts capability; an invalid prompt name is a JSON-RPC error -32602', verdict: ruled('mcp.jsonrpc') },
  // JSON-RPC 2.0
  { source: 'JSON-RPC 2.0', section: '§5', keyword: 'MUST', text: 'jsonrpc: A String specifying the version of the JSON-RPC protocol. MUST be exactly "2.0"; id: It MUST be the same as the value of the id member in the Request Object', verdict: ruled('mcp.jsonrpc') },
  { source: 'JSON-RPC 2.0', section: '§4.1', keyword: 'MUST NOT', text: 'The Server MUST NOT reply to a Notification', verdict: ruled('mcp.notification') },
  { source: 'JSON-RPC 2.0', section: '§5', keyword: 'MUST NOT', text: 'result: This member is REQUIRED on success. This member MUST NOT exist if there was an error invoking the method; error: MUST NOT exist if there was no error', verdict: ruled('mcp.jsonrpc') },
  { source: 'JSON-RPC 2.0', section: '§5.1', keyword: 'MUST', text: 'error codes -32700 Parse error, -32600 Invalid Request, -32601 Method not found, -32602 Invalid params', verdict: ruled('mcp.jsonrpc') },
  // RFC 9110, for what the contract uses
  { source: 'RFC 9110', section: '§15.5.6', keyword: 'MUST', text: 'The origin server MUST generate an Allow header field in a 405 response containing a list of the target resource\'s currently supported methods', verdict: ruled('openapi.transport') },
  { source: 'RFC 9110', section: '§11.6.1', keyword: 'MUST', text: 'A server generating a 401 (Unauthorized) response MUST send a WWW-Authenticate header field containing at least one challenge', verdict: ruled('openapi.responses', 'spec.auth.401') },
  { source: 'RFC 9110', section: '§10.2.3', keyword: 'SHOULD', text: 'Retry-After: … a delay-seconds value is a non-negative decimal integer', verdict: ruled('openapi.retry-after') },
  { source: 'RFC 9110', section: '§9.3.2', keyword: 'SHOULD', text: 'The server SHOULD send the same header fields in response to a HEAD request as it would have sent if the request method had been GET', verdict: unchecked(NO_CHECK) },
  { source: 'RFC 9110', section: '§8.3', keyword: 'SHOULD', text: 'A sender that generates a message containing content SHOULD generate a Content-Type header field in that message', verdict: ruled('openapi.responses') },
  { source: 'RFC 9110', section: '§15.3.5', keyword: 'MUST NOT', text: 'A 204 response … cannot contain content', verdict: ruled('openapi.responses') },
  { source: 'OAuth 2.1', section: '§1.5', keyword: 'MUST', text: 'the authorization server … MUST use TLS (loopback addresses excepted for development)', verdict: outside('which transport a deployment serves over is its operator\'s; the suite runs against the address it is given') },
  { source: 'OAuth 2.1', section: '§4.1.2', keyword: 'SHOULD', text: 'the authorization server … SHOULD … bind the code to the client, redirect URI and code challenge (stored with the code)', verdict: outside(SERVER_SIDE) },
];
