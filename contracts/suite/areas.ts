/**
 * The area of the contract a check belongs to, from the first part of its id: the JUnit
 * classname, so that a CI dashboard groups the results (auth, builds, rate limits, …)
 * instead of showing one lump.
 */
const AREA_OF_PREFIX: Readonly<Record<string, string>> = {
  auth: 'auth',
  credentials: 'auth',
  oauth: 'auth',
  isolation: 'isolation',
  builds: 'builds',
  idempotency: 'builds',
  deliverables: 'deliverables',
  sharing: 'deliverables',
  limits: 'rate-limits',
  tokens: 'tokens',
  targets: 'targets',
  library: 'targets',
  keys: 'keys',
  images: 'generation',
  audio: 'generation',
  chat: 'generation',
  suggestions: 'generation',
  options: 'generation',
  mcp: 'mcp',
  errors: 'errors',
  generic: 'requests',
  parameters: 'requests',
  references: 'requests',
  required: 'requests',
  transport: 'requests',
  setup: 'simulator-control',
};

export function areaOf(checkId: string): string {
  const prefix = checkId.split('.')[0] ?? checkId;
  return AREA_OF_PREFIX[prefix] ?? prefix;
}
