import { OPENAPI_RULES } from './openapi-rules.js';
import { PROPERTY_RULES } from './property-rules.js';
import { PROTOCOL_RULES } from './protocol-rules.js';
import type { Rule } from './rule.js';
import { SPEC_RULES } from './spec-rules.js';

export type { Rule, RuleCoverage, RuleStatus } from './rule.js';
export { ruleCoverage, uncoveredRules } from './rule.js';

/** Every rule the suite holds a server to: the spec's, openapi.yaml's, and the protocols'. */
export const RULE_CATALOGUE: readonly Rule[] = [...SPEC_RULES, ...OPENAPI_RULES, ...PROTOCOL_RULES, ...PROPERTY_RULES];
