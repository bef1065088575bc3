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

/** Each part of the catalogue breaks one part of the contract: the areas of its faults, unless a fault says otherwise. */
const inAreas = (areas: readonly string[], part: Violation[]): Violation[] => part.map((v) => ({ areas, ...v }));

/** Every seeded violation. The contract suite must fail against each and name the broken rule. */
export const VIOLATIONS: Violation[] = [
  ...inAreas(['auth', 'errors'], AUTH_AND_ERROR_VIOLATIONS),
  ...inAreas(['rate-limits'], LIMIT_VIOLATIONS),
  ...inAreas(['builds', 'tokens', 'deliverables'], TOKEN_AND_BUILD_VIOLATIONS),
  ...inAreas(['targets', 'deliverables', 'keys', 'tokens'], CAPABILITY_VIOLATIONS),
  ...inAreas(['generation'], GENERATION_VIOLATIONS),
  ...inAreas(['auth'], CREDENTIAL_VIOLATIONS),
  // A reference to another account's target is refused as an unknown reference (the requests area).
  ...inAreas(['isolation', 'requests'], ISOLATION_VIOLATIONS),
  ...inAreas(['requests'], PARAMETER_VIOLATIONS),
  ...inAreas(['mcp'], MCP_VIOLATIONS),
  ...inAreas(['auth'], OAUTH_VIOLATIONS),
  ...inAreas(['simulator-control'], DEPLOYMENT_VIOLATIONS),
  ...inAreas(['builds'], RULE_CASE_VIOLATIONS),
  ...inAreas(['mcp', 'auth'], FLOW_VIOLATIONS),
];
