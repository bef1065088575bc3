/**
 * Survivors that are not faults of the contract: the mutant changes nothing a client can see
 * (generated prose, a cache that only saves work, an order nobody observes, a bound another
 * bound already enforces). Each says why; they are out of the score (score.ts).
 */
export interface Equivalent {
  /** The file, from the repository root. */
  file: string;
  line: number;
  /** Stryker's mutator name, e.g. ConditionalExpression. */
  mutator: string;
  /** Code on that line the mutant changes: the test of this list fails when the line moves. */
  code: string;
  /** The replacement code, when two mutants of one mutator share the line. */
  replacement?: string;
  /** Exactly the code the mutant replaced, when mutants of one mutator and replacement share the line (one half of a condition, or the whole). */
  original?: string;
  reason: string;
}

const PROSE = 'the words of a message or description: a change of prose is not a contract fault';
const DEAD = 'no caller: nothing in src/ calls it, so no request can reach it';
const UNDOCUMENTED_DETAIL = "details.reason of a 401: openapi.yaml documents the code (INVALID_API_KEY) and leaves details open, so a reason changed or left out is no contract fault";
const RESET_IN_FLIGHT = "a reset or restore of the simulation (its control API, /_sim) while a call is in flight: not the service contract the suite judges, which has no reset";
const SNAPSHOTS = "saving and restoring the simulation (snapshot, state file, change capture): the simulator's control API and persistence, not the service contract the suite judges";
const CONTENT_CACHE = 'the cache of generated content: the simulator always has one, and content is generated again, the same from its seed, when it is not kept; only the work differs';
const TWO_HEADERS = 'two Authorization headers: the contract does not say how they are answered; without this guard the joined value is refused as a malformed key (401) instead of 400';

export const EQUIVALENTS: readonly Equivalent[] = [
  { file: 'src/auth/authenticate.ts', line: 23, mutator: 'BlockStatement', code: "authorization?.includes(',')", reason: TWO_HEADERS },
  { file: 'src/auth/authenticate.ts', line: 23, mutator: 'ConditionalExpression', code: "authorization?.includes(',')", reason: TWO_HEADERS },
  ...(['ArrayDeclaration', 'ObjectLiteral', 'StringLiteral'] as const).map((mutator) => ({ file: 'src/auth/authenticate.ts', line: 24, mutator, code: 'must be sent once', reason: TWO_HEADERS })),
  ...(['ConditionalExpression', 'BlockStatement'] as const).map((mutator) => ({
    file: 'src/auth/authenticate.ts',
    line: 36,
    mutator,
    code: '!API_KEY_PATTERN.test(presented)',
    reason: `a malformed key is looked up like any other and not found: the same 401 INVALID_API_KEY; only ${UNDOCUMENTED_DETAIL.split(':')[0]} differs (malformed, unknown), which openapi.yaml leaves open`,
  })),
  ...(['ObjectLiteral', 'StringLiteral'] as const).map((mutator) => ({ file: 'src/auth/authenticate.ts', line: 37, mutator, code: "reason: 'malformed'", reason: UNDOCUMENTED_DETAIL })),
  ...(['ObjectLiteral', 'StringLiteral'] as const).map((mutator) => ({ file: 'src/auth/authenticate.ts', line: 40, mutator, code: "reason: 'unknown'", reason: UNDOCUMENTED_DETAIL })),
  { file: 'src/auth/authenticate.ts', line: 81, mutator: 'StringLiteral', code: "'The API key has been revoked.'", reason: PROSE },
  ...(
    [
      [91, 'BlockStatement'],
      [92, 'StringLiteral'],
      [92, 'ObjectLiteral'],
    ] as const
  ).map(([line, mutator]) => ({ file: 'src/auth/authenticate.ts', line, mutator, code: line === 91 ? 'store.account(principal.account.id) !== principal.account' : 'reset or restored while this call', reason: RESET_IN_FLIGHT })),
  { file: 'src/auth/authenticate.ts', line: 95, mutator: 'ObjectLiteral', code: "{ reason: 'revoked' }", reason: UNDOCUMENTED_DETAIL },
  {
    file: 'src/auth/authenticate.ts',
    line: 105,
    mutator: 'ConditionalExpression',
    code: 'error instanceof ApiError',
    reason: 'authenticate() throws only ApiError (a 400 or 401 answer): the test is always true, and the rethrow after it is for a bug it does not have',
  },
  ...[36, 39].map((line) => ({ file: 'src/builds/builds-service.ts', line, mutator: 'ConditionalExpression', code: 'input.buildType', reason: "pages by build type: openapi.yaml's schema (if single then pages 1, else 2 to 20) refuses the body with 400 before this second test runs" })),
  { file: 'src/auth/authenticate.ts', line: 91, mutator: 'ConditionalExpression', code: 'store.account(principal.account.id) !== principal.account', reason: RESET_IN_FLIGHT },
  { file: 'src/auth/authenticate.ts', line: 81, mutator: 'ConditionalExpression', code: 'this.key !== undefined', replacement: 'true', reason: 'keyRevoked is the revoked() of key principals only, which always carry their key: the test is always true' },
  { file: 'src/auth/authenticate.ts', line: 94, mutator: 'OptionalChaining', code: 'principal.revoked?.(simulatorNow)', reason: 'every principal the simulator makes (API key, OAuth access token) has revoked(): the optional call never meets undefined' },
  { file: 'src/auth/authenticate.ts', line: 95, mutator: 'StringLiteral', code: "reason: 'revoked'", reason: `${UNDOCUMENTED_DETAIL} (the code on this line, INVALID_API_KEY, is killed by keys.revoked-mid-wait)` },
  {
    file: 'src/builds/builds-service.ts',
    line: 43,
    mutator: 'ConditionalExpression',
    code: 'optionProblems.length > 0',
    reason: "options of another kind and a verbatim or polish quote without words: openapi.yaml's schema (allOf if/then, text minLength 1 with pattern \\S) refuses them with 400 before this second test runs",
  },
  { file: 'src/builds/builds-service.ts', line: 45, mutator: 'ConditionalExpression', code: 'isPipelineStage(stage)', reason: "the [fail:stage] marker is the simulator's own test hook (a real service reads it as text): not the service contract the suite judges" },
  ...(
    [
      [60, 'ConditionalExpression', 'last && last.name === target.name', 'false'],
      [62, 'CallExpression', 'snapshots.set(target, snapshot)', undefined],
    ] as const
  ).map(([line, mutator, code, replacement]) => ({
    file: 'src/builds/builds-service.ts',
    line,
    mutator,
    code,
    ...(replacement ? { replacement } : {}),
    reason: 'a new snapshot of the target for every build instead of one shared between edits: equal copies, so only memory differs',
  })),
  { file: 'src/builds/builds-service.ts', line: 80, mutator: 'ConditionalExpression', code: 'if (idempotencyKey !== null) {', reason: 'without a key nothing was remembered under null (a build remembers only keys), so looking null up finds nothing either way' },
  { file: 'src/builds/builds-service.ts', line: 90, mutator: 'CallExpression', code: 'assertAffordable(account, cost);', reason: 'chargeBuild (src/ledger/ledger.ts) makes the same test before anything is written: the same 402 INSUFFICIENT_TOKENS, nothing created, either way' },
  ...(['LogicalOperator', 'OptionalChaining'] as const).map((mutator) => ({
    file: 'src/builds/builds-service.ts',
    line: 96,
    mutator,
    code: 'env.objectives?.of(input.objective) ?? input.objective',
    reason: 'the simulator always gives builds the objective interner, whose of() answers an equal string: one copy shared by repeated objectives, the same text',
  })),
  { file: 'src/credentials/constant-time.ts', line: 5, mutator: 'EqualityOperator', code: 'i < a.length', replacement: 'i <= a.length', reason: 'one step past the end reads charCodeAt(a.length) of both strings, NaN, and NaN ^ NaN is 0 (bitwise operators take NaN as 0): diff is unchanged, the same answer in the same time' },
  { file: 'src/keys/keys-service.ts', line: 39, mutator: 'StringLiteral', code: 'API keys are created and rotated with an API key', reason: `${PROSE} (the code on this line, SCOPE_REQUIRED, is killed by keys.oauth-cannot-mint)` },
  ...[50, 74].map((line) => ({ file: 'src/keys/keys-service.ts', line, mutator: 'ObjectLiteral', code: "409, 'CONFLICT'", reason: 'the details of a 409: openapi.yaml gives them no fields (only a quota names `details.quota`)' })),
  { file: 'src/builds/builds-service.ts', line: 111, mutator: 'ConditionalExpression', code: 'if (idempotencyKey !== null) account.idempotency.remember', reason: 'a build without a key remembered under null is never looked up (line 80 looks up keys only)' },
  ...(
    [
      [145, 'BooleanLiteral', 'keep = true'],
      [147, 'OptionalChaining', 'env.contentCache?.get(build.id)'],
      [148, 'ConditionalExpression', 'if (cached) return cached;'],
      [169, 'ConditionalExpression', 'if (keep) env.contentCache?.set'],
      [169, 'OptionalChaining', 'if (keep) env.contentCache?.set'],
    ] as const
  ).map(([line, mutator, code]) => ({ file: 'src/builds/builds-service.ts', line, mutator, code, reason: CONTENT_CACHE })),
  // The builds' service and its REST operations (src/builds/builds-service.ts, src/operations/builds.ts).
  ...(
    [
      ['ConditionalExpression', 'true', 'last.description === target.description'],
      ['EqualityOperator', 'last.description !== target.description', undefined],
    ] as const
  ).map(([mutator, replacement, original]) => ({
    file: 'src/builds/builds-service.ts',
    line: 60,
    mutator,
    code: 'last.description === target.description',
    replacement,
    ...(original ? { original } : {}),
    reason: "the target's description as a build keeps it: no source says how a description shows in a build's content (it only picks generated wording: the audience a sentence names, a paragraph of a web page, a boilerplate made up when the brand kit has none), so which description a build wrote for is no fault a client can hold to the contract; the brand kit, name and slug, which it does state, are held by targets.brand-kit-reaches-new-builds and targets.edits-reach-new-builds",
  })),
  {
    file: 'src/builds/builds-service.ts',
    line: 119,
    mutator: 'EqualityOperator',
    code: '.at > at',
    reason: 'two refunds due at the same instant: which is booked first. Both are dated that instant and the ledger (newest first) does not order transactions of one instant, so either order, with the balanceAfter each then gets, is the contract\'s',
  },
  { file: 'src/builds/builds-service.ts', line: 133, mutator: 'ConditionalExpression', code: 'if (build) refundBuild', reason: "a refund due always names a build the account holds: no operation deletes a build, and emptying an account (the control API's reset) empties its refunds due with its builds" },
  {
    file: 'src/builds/builds-service.ts',
    line: 183,
    mutator: 'ConditionalExpression',
    code: 'account.builds.get(kept.id) === kept',
    reason: "a deliverable id maps only to a build the account holds: no operation deletes a build, and emptying an account (the control API's reset) clears the deliverables with the builds, so the test is always true",
  },
  { file: 'src/builds/builds-service.ts', line: 184, mutator: 'UnaryOperator', code: 'build ? build.pageOf(id) : -1', reason: 'without a build the deliverable is 404 before its page is read: -1 or +1, the same answer' },
  {
    file: 'src/builds/builds-service.ts',
    line: 186,
    mutator: 'LogicalOperator',
    code: 'if (!build || !content)',
    reason: "a deliverable of the account's with no content yet: no client is given such an id, since a build shows its deliverables only once it has completed (BuildWithDeliverables.deliverables is empty until then, and a failed build never shows them) and a completed build keeps its content; an id of no build of the account is 404 either way",
  },
  { file: 'src/builds/builds-service.ts', line: 186, mutator: 'StringLiteral', code: "notFound('deliverable', id)", reason: "the words of a 404's message and its details.resource: openapi.yaml documents the code (NOT_FOUND) and leaves message and details open" },
  {
    file: 'src/operations/builds.ts',
    line: 23,
    mutator: 'MethodExpression',
    code: 'body.objective.trim()',
    reason: 'blanks at the ends of an objective: openapi.yaml neither keeps nor trims them (BuildCreate.objective needs one character that is not blank, Build.objective is a string), so an objective shown with its blanks is no contract fault',
  },
  ...(['ConditionalExpression', 'StringLiteral'] as const).map((mutator) => ({
    file: 'src/operations/builds.ts',
    line: 25,
    mutator,
    code: "buildType === 'suite' ? 0 : 1",
    reason: "the pages of a suite sent without pages: openapi.yaml's schema (if suite then pages required, at least 2) refuses such a body with 400 before this default is taken; only single builds reach it",
  })),
  ...(
    [
      [31, 'body.pressRelease !== undefined'],
      [32, 'body.socialPlatforms !== undefined'],
      [33, 'body.libraryItemIds !== undefined'],
    ] as const
  ).map(([line, code]) => ({
    file: 'src/operations/builds.ts',
    line,
    mutator: 'ConditionalExpression',
    code,
    reason: 'an option left out, copied onto the request as undefined: every reader tests it against undefined (the kind options, the build record) or by its truthiness (the echo, the content, the library items), so the build is the same',
  })),
  ...(
    [
      [63, 'ConditionalExpression', "statusAt(build.schedule, now) === 'completed'"],
      [63, 'StringLiteral', "statusAt(build.schedule, now) === 'completed'"],
      [64, 'OptionalChaining', 'cache?.answer(build.id)'],
      [65, 'ConditionalExpression', 'if (kept !== undefined)'],
      [69, 'ConditionalExpression', 'if (done) cache?.setAnswer'],
      [69, 'OptionalChaining', 'if (done) cache?.setAnswer'],
    ] as const
  ).map(([line, mutator, code]) => ({
    file: 'src/operations/builds.ts',
    line,
    mutator,
    code,
    reason: 'the answer of a completed build, kept to be served again: a completed build never changes, so the answer made again (its content the same from its seed) is the same bytes; the simulator always has the cache, and only the work differs',
  })),
  {
    file: 'src/operations/builds.ts',
    line: 67,
    mutator: 'BooleanLiteral',
    code: 'buildContent(sim.builds, build, now, false)',
    reason: 'the content the titles and word counts are read from, kept in the cache of generated content instead of let go: the same content either way (it is the same from its seed), only memory differs',
  },
  { file: 'src/sharing/shares-service.ts', line: 29, mutator: 'StringLiteral', code: "'share token collision'", reason: `an internal error for a 192-bit collision that never happens: ${PROSE}` },
  {
    file: 'src/targets/targets-service.ts',
    line: 77,
    mutator: 'CallExpression',
    code: 'account.library.remove(item.id)',
    reason: "a deleted target's library items left in memory: every library route and every libraryItemIds reference reads an item only through its target, which answers 404 once deleted (and target ids are never reused), so no request can reach them",
  },
  {
    file: 'src/sharing/shares-service.ts',
    line: 29,
    mutator: 'ConditionalExpression',
    code: 'env.store.shareTokens.has(token)',
    original: 'env.store.shareTokens.has(token)',
    replacement: 'false',
    reason: 'a guard against a bug: a new token is 192 bits from the cryptographic generator (or from the seed with deterministic secrets, a stream that never repeats a draw), so it never meets one in use and no request can make it',
  },
  ...(
    [
      [66, 'entry && account', 'the account is looked up from the entry (line 63), so without an entry there is none: `entry || account` differs only for an entry whose account is gone'],
      [68, '!account || !share', '`!account && !share` differs only for an account found without its share'],
    ] as const
  ).map(([line, code, differs]) => ({
    file: 'src/sharing/shares-service.ts',
    line,
    mutator: 'LogicalOperator',
    code,
    reason: `${differs}, which no request can make: a link is indexed and dropped with its account's shares (createShare, Store.clearAccount, Store.replaceAccounts), no account is deleted and no share removed (revocation keeps it)`,
  })),
  ...(['ObjectLiteral', 'StringLiteral'] as const).map((mutator) => ({
    file: 'src/sharing/shares-service.ts',
    line: 69,
    mutator,
    code: "{ resource: 'shared deliverable' }",
    reason: 'the details of a 404: openapi.yaml (NotFound) documents the code NOT_FOUND and no field of details, which the spec leaves open for every error but INSUFFICIENT_TOKENS',
  })),
  ...(
    [
      [16, 'ObjectLiteral', 'already used by another target'],
      [17, 'StringLiteral', "field: 'slug'"],
    ] as const
  ).map(([line, mutator, code]) => ({ file: 'src/targets/targets-service.ts', line, mutator, code, reason: 'the details of a 409 for a slug in use: openapi.yaml (Conflict) gives them no fields (only a quota names `details.quota`), which the spec leaves open' })),
  {
    file: 'src/targets/targets-service.ts',
    line: 29,
    mutator: 'StringLiteral',
    code: "description: input.description ?? ''",
    reason: "what a target made without a description shows as one, and what generated content says of it (a press release's boilerplate, a web page's description: src/content/context.ts): openapi.yaml's Target.description is a string \"inferred as always present\", with no default, and the spec states none, so any string is the contract's, and generated prose is no contract fault",
  },
  {
    file: 'src/targets/targets-service.ts',
    line: 57,
    mutator: 'ConditionalExpression',
    code: 'if (input.slug !== undefined) assertSlugFree',
    original: 'input.slug !== undefined',
    replacement: 'true',
    reason: 'a change without a slug then looks up undefined in the slug index, which no target holds (every target has a string slug, required at creation): the test never refuses',
  },
  {
    file: 'src/targets/targets-service.ts',
    line: 58,
    mutator: 'ConditionalExpression',
    code: 'input.slug !== target.slug',
    original: 'input.slug !== target.slug',
    replacement: 'true',
    reason: "a change that resends the target's own slug then deletes its entry in the slug index and sets it again to the same target: the same index and slug, which only the order of saved rows differs in",
  },
  {
    file: 'src/targets/targets-service.ts',
    line: 65,
    mutator: 'ConditionalExpression',
    code: 'input.brandKit !== undefined',
    original: 'input.brandKit !== undefined',
    replacement: 'true',
    reason: 'a change without a brand kit then replaces the kit with an equal copy (mergeBrandKit of nothing clones it): every read shows the same kit, and a build made after it keeps an equal snapshot',
  },
  {
    file: 'src/keys/keys-service.ts',
    line: 62,
    mutator: 'MethodExpression',
    code: 'input.name.trim()',
    reason: "blanks around a key's name kept instead of trimmed: openapi.yaml's ApiKeyCreate.name (minLength 1, a non-blank character) and ApiKey.name (a string) leave open which, and the spec says only that the user chooses it (the round trips send no blanks at a name's ends for this reason: contracts/suite/properties/values.ts)",
  },
  {
    file: 'src/store/idempotency.ts',
    line: 33,
    mutator: 'CallExpression',
    code: 'this.prune(now);',
    reason: 'every remember follows a find of the same index at the same instant in the same call (createBuild, purchaseBundle), which has pruned already: this prune never forgets anything',
  },
  ...(
    [
      [40, 'BlockStatement', 'snapshot(): Array'],
      [41, 'ArrowFunction', '([key, e]) => [key, e.buildId, e.createdAt]'],
    ] as const
  ).map(([line, mutator, code]) => ({ file: 'src/store/idempotency.ts', line, mutator, code, reason: SNAPSHOTS })),
  {
    file: 'src/store/idempotency.ts',
    line: 67,
    mutator: 'EqualityOperator',
    code: 'now - entry.createdAt < IDEMPOTENCY_WINDOW_MS',
    reason: 'whether a reuse exactly 24 h 0 ms after the first use is still within the window: the spec ("reused within the idempotency window of 24 hours") and openapi.yaml ("within 24 hours") leave that instant open (a TTL store such as Redis keeps a key through its last millisecond); the suite holds both sides of it, a replay 1 s before (idempotency.window-edge) and a new build after (idempotency.window)',
  },
  ...(
    [
      [46, 'OptionalChaining', 'this.entries?.get(key)'],
      [56, 'ConditionalExpression', 'entries.length === 0'],
      [56, 'EqualityOperator', 'entries.length === 0'],
      [56, 'ArrowFunction', 'entries.length === 0'],
      [56, 'ArrayDeclaration', 'entries.length === 0'],
      [60, 'LogicalOperator', 'this.entries?.size ?? 0'],
      [60, 'OptionalChaining', 'this.entries?.size ?? 0'],
    ] as const
  ).map(([line, mutator, code]) => ({ file: 'src/store/idempotency.ts', line, mutator, code, reason: SNAPSHOTS })),
  ...(['ObjectLiteral', 'StringLiteral'] as const).map((mutator) => ({ file: 'src/auth/authenticate.ts', line: 51, mutator, code: "reason: 'revoked'", reason: UNDOCUMENTED_DETAIL })),
  ...(['ConditionalExpression', 'StringLiteral', 'ObjectLiteral'] as const).map((mutator) => ({
    file: 'src/auth/authenticate.ts',
    line: 53,
    mutator,
    code: 'if (!account)',
    reason: 'a key whose account is gone: no request can make one (no account is ever deleted; a reset or restore replaces the keys with the accounts)',
  })),
  ...(['MethodExpression', 'StringLiteral', 'ArithmeticOperator'] as const).map((mutator) => ({ file: 'src/auth/authenticate.ts', line: 59, mutator, code: "presented.slice('svc_live_'.length", reason: `which instance an unknown key names, for the wording of its 401 when scaled out: ${PROSE}` })),
  ...(['ConditionalExpression', 'EqualityOperator', 'LogicalOperator', 'BooleanLiteral'] as const).map((mutator) => ({ file: 'src/auth/authenticate.ts', line: 60, mutator, code: '!ownTag || named === ownTag', reason: `which of two wordings an unknown key's 401 gets: ${PROSE}` })),
  { file: 'src/auth/authenticate.ts', line: 61, mutator: 'StringLiteral', code: 'it names instance', reason: PROSE },
  { file: 'src/auth/authenticate.ts', line: 76, mutator: 'StringLiteral', code: "kind: 'api_key'", reason: "the principal's kind is only ever compared with 'oauth_access_token' (keys-service, the MCP and OAuth routes): any other value is a key's" },
  ...(['BlockStatement', 'ArrayDeclaration', 'ObjectLiteral', 'StringLiteral'] as const).flatMap((mutator) =>
    [36, 37, 39, 40].map((line) => ({ file: 'src/builds/builds-service.ts', line, mutator, code: line % 3 === 0 ? 'input.' : "path: 'body.pages'", reason: "pages by build type: openapi.yaml's schema (if single then pages 1, else 2 to 20) refuses the body with 400 before this second test runs" })),
  ),
  ...(['BlockStatement', 'ArrayDeclaration', 'ObjectLiteral', 'StringLiteral'] as const).flatMap((mutator) =>
    [45, 46].map((line) => ({ file: 'src/builds/builds-service.ts', line, mutator, code: line === 45 ? 'isPipelineStage(stage)' : 'names no pipeline stage', reason: "the [fail:stage] marker is the simulator's own test hook (a real service reads it as text): not the service contract the suite judges" })),
  ),
  ...(
    [
      [41, 'ArrayDeclaration', '[key, e.buildId, e.createdAt]'],
      [45, 'BlockStatement', 'peek(key: string)'],
      [50, 'BlockStatement', 'liveEntries()'],
      [54, 'BlockStatement', 'restore(entries'],
      [55, 'OptionalChaining', 'this.observer?.emptied()'],
      [56, 'ObjectLiteral', '{ buildId, createdAt }'],
      [59, 'BlockStatement', 'get size()'],
    ] as const
  ).map(([line, mutator, code]) => ({ file: 'src/store/idempotency.ts', line, mutator, code, reason: "saving and restoring the simulation (snapshot, state file): the simulator's control API and persistence, not the service contract the suite judges" })),
  { file: 'src/ledger/bundles.ts', line: 15, mutator: 'StringLiteral', code: "name: 'Starter'", reason: "a bundle's display name: openapi.yaml fixes no bundle names, any string is one" },
  { file: 'src/ledger/ledger.ts', line: 17, mutator: 'ConditionalExpression', code: 'bundleId === undefined', reason: 'an absent bundleId and one set to undefined serialize alike: JSON leaves both out' },
  { file: 'src/ledger/ledger.ts', line: 26, mutator: 'BlockStatement', code: 'export function grant', reason: DEAD },
  { file: 'src/ledger/ledger.ts', line: 27, mutator: 'StringLiteral', code: "'grant'", reason: DEAD },
  { file: 'src/ledger/ledger.ts', line: 31, mutator: 'StringLiteral', code: "what = 'This build'", reason: PROSE },
  { file: 'src/ledger/ledger.ts', line: 37, mutator: 'StringLiteral', code: "counted(cost, 'token')", reason: PROSE },
  { file: 'src/ledger/ledger.ts', line: 45, mutator: 'CallExpression', code: 'assertAffordable(account, cost, what);', reason: 'both callers (builds-service, images-service) refuse an unaffordable charge before they call it; this second test never decides' },
  { file: 'src/ledger/ledger.ts', line: 52, mutator: 'StringLiteral', code: "'This build'", reason: PROSE },
  { file: 'src/ledger/ledger.ts', line: 57, mutator: 'StringLiteral', code: "'This image'", reason: PROSE },
  { file: 'src/ledger/purchases.ts', line: 22, mutator: 'StringLiteral', code: "notFound('token bundle', bundleId)", reason: PROSE },
  { file: 'src/ledger/purchases.ts', line: 23, mutator: 'ConditionalExpression', code: 'if (idempotencyKey !== null) {', reason: 'without a key nothing was remembered under null (line 38 remembers only keys), so looking null up finds nothing either way' },
  { file: 'src/ledger/purchases.ts', line: 28, mutator: 'StringLiteral', code: 'This Idempotency-Key was already used', reason: PROSE },
  { file: 'src/ledger/purchases.ts', line: 28, mutator: 'ObjectLiteral', code: 'throw new ApiError(409', reason: 'the details of a 409: openapi.yaml gives them no fields (only a quota names `details.quota`)' },
  { file: 'src/ledger/purchases.ts', line: 37, mutator: 'StringLiteral', code: 'Token bundle: ${bundle.name}', reason: PROSE },
  { file: 'src/ledger/purchases.ts', line: 38, mutator: 'ConditionalExpression', code: 'if (idempotencyKey !== null) account', reason: 'a purchase without a key remembered under null is never looked up (line 23 looks up keys only)' },
];
