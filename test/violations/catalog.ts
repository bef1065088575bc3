import { AUTH_AND_ERROR_VIOLATIONS } from './auth-and-errors.js';
import { CAPABILITY_VIOLATIONS } from './capabilities.js';
import { GENERATION_VIOLATIONS } from './generation.js';
import { LIMIT_VIOLATIONS } from './limits.js';
import { TOKEN_AND_BUILD_VIOLATIONS } from './tokens-and-builds.js';
import type { Violation } from './violation.js';

export type { Violation } from './violation.js';

/** Every seeded violation. The contract suite must fail against each and name the broken rule. */
export const VIOLATIONS: Violation[] = [...AUTH_AND_ERROR_VIOLATIONS, ...LIMIT_VIOLATIONS, ...TOKEN_AND_BUILD_VIOLATIONS, ...CAPABILITY_VIOLATIONS, ...GENERATION_VIOLATIONS];
