import { AUTH_AND_ERROR_VIOLATIONS } from './auth-and-errors.js';
import { CAPABILITY_VIOLATIONS } from './capabilities.js';
import { CREDENTIAL_VIOLATIONS } from './credentials.js';
import { DEPLOYMENT_VIOLATIONS } from './deployment.js';
import { FLOW_VIOLATIONS } from './flows.js';
import { GENERATION_VIOLATIONS } from './generation.js';
import { ISOLATION_VIOLATIONS } from './isolation.js';
import { LIMIT_VIOLATIONS } from './limits.js';
import { MCP_VIOLATIONS } from './mcp.js';
import { OAUTH_VIOLATIONS } from './oauth.js';
import { PARAMETER_VIOLATIONS } from './parameters.js';
import { RULE_CASE_VIOLATIONS } from './rule-cases.js';
import { TOKEN_AND_BUILD_VIOLATIONS } from './tokens-and-builds.js';
import type { Violation } from './violation.js';

export type { Violation } from './violation.js';

/** Every seeded violation. The contract suite must fail against each and name the broken rule. */
export const VIOLATIONS: Violation[] = [
  ...AUTH_AND_ERROR_VIOLATIONS, ...LIMIT_VIOLATIONS, ...TOKEN_AND_BUILD_VIOLATIONS, ...CAPABILITY_VIOLATIONS, ...GENERATION_VIOLATIONS,
  ...CREDENTIAL_VIOLATIONS,
  ...ISOLATION_VIOLATIONS,
  ...PARAMETER_VIOLATIONS,
  ...MCP_VIOLATIONS,
  ...OAUTH_VIOLATIONS,
  ...DEPLOYMENT_VIOLATIONS,
  ...RULE_CASE_VIOLATIONS,
  ...FLOW_VIOLATIONS,
];
