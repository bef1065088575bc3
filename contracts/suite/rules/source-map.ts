import type { SourceStatement } from './source-statements.js';
import { outside, ruled, unchecked, type Verdict } from './verdict.js';

/**
 * Which rules hold each statement of the spec and of openapi.yaml (source-statements.ts reads
 * them). A mapping names the statements it takes by kind, by where they are and by their words;
 * the first that takes a statement decides. A statement no mapping takes fails the
 * source-coverage test, and so does a mapping that takes nothing.
 */
export interface SourceMapping {
  kinds: Array<SourceStatement['kind']>;
  where?: RegExp;
  text?: RegExp;
  side?: 'request' | 'response';
  verdict: Verdict;
}

/** The lists whose default page size a property check reads (contracts/suite/properties/pages.ts: every list but those under a deliverable). */
export const DEFAULT_LIMIT_LISTS = ['listTokenTransactions', 'listTargets', 'listBuilds', 'listLibraryItems', 'listImages', 'listAudio', 'listChats', 'listApiKeys'];
/** The request enums whose every value the round trips send. */
export const ROUND_TRIP_ENUMS = ['LibraryItemType', 'Scope', 'QuoteMode'];
/** The schemas of the bodies whose constraints the refusals break one by one (their fields; not the oneOf and if/then parts). */
export const REFUSED_SCHEMAS = /^schema (TargetCreate|TargetUpdate|BrandKitInput|MediaContact|LibraryItemCreate|LibraryItemUpdate|LibraryItemUrl|ApiKeyCreate|ChatCreate|ChatMessageCreate|KeywordExtractionRequest|TopicSuggestionRequest|QuoteSuggestionRequest|BriefSuggestionRequest)(\.[^|]+)?$/;
export const REFUSED_KEYWORDS = /: (type "(string|integer|array)"|minLength \d+|maxLength \d+|pattern |minimum |maximum |maxItems |minItems |uniqueItems true|format "uuid"|\S+ is required|no property beyond those listed)/;

const NOT_SHOWN = outside('the spec says it does not show this: a statement of what is missing binds no server');
const CONTEXT = outside('an introduction or heading of the statements that follow, which have rules of their own');

/** The spec, statement by statement (each list item, table row and sentence). */
const SPEC: SourceMapping[] = [
  { kinds: ['spec'], text: /not shown\.?\s*$|not shown\.? The only way/, verdict: NOT_SHOWN },
  { kinds: ['spec'], text: /^(Request fields on creation|Creation response|Rules|Notes|Capabilities that exist but whose endpoints are not specified|Rate-limit response headers, present on every response):?$/, verdict: CONTEXT },
  { kinds: ['spec'], where: /^$/, text: /This document covers|base address|relative to \{base_url\}/, verdict: outside('where the service is served is the address the suite is given') },
  { kinds: ['spec'], where: /^What the service does$/, text: /asynchronous builds|multi-stage pipeline/, verdict: ruled('spec.states.order') },
  { kinds: ['spec'], where: /^What the service does$/, text: /belongs to a target/, verdict: ruled('openapi.library.references', 'openapi.targets') },
  { kinds: ['spec'], where: /^What the service does$/, text: /Content kinds/, verdict: ruled('spec.kinds.ten') },
  { kinds: ['spec'], where: /^What the service does$/, text: /Press-release output/, verdict: ruled('spec.press-release') },
  { kinds: ['spec'], where: /^What the service does$/, text: /^Audio/, verdict: ruled('spec.audio.voices') },
  { kinds: ['spec'], where: /^What the service does$/, text: /^Images/, verdict: ruled('spec.images') },
  { kinds: ['spec'], where: /^What the service does$/, text: /^Tokens/, verdict: ruled('spec.tokens.transactions', 'spec.tokens.same-bundles') },
  { kinds: ['spec'], where: /^What the service does$/, text: /^Library/, verdict: ruled('spec.library') },
  { kinds: ['spec'], where: /^What the service does$/, text: /^Chat/, verdict: ruled('spec.chat') },
  { kinds: ['spec'], where: /^What the service does$/, text: /^Suggestions/, verdict: ruled('spec.suggestions') },
  { kinds: ['spec'], where: /^What the service does$/, text: /^Deliverables can be downloaded/, verdict: ruled('spec.deliverable.download', 'spec.deliverable.full') },
  { kinds: ['spec'], where: /^What the service does$/, text: /carries a brand kit/, verdict: ruled('spec.brand-kit') },
  { kinds: ['spec'], where: /^What the service does$/, text: /single article or a full content suite/, verdict: ruled('openapi.prices') },
  { kinds: ['spec'], where: /^What the service does$/, text: /same token bundles pay/, verdict: ruled('spec.tokens.same-bundles') },
  { kinds: ['spec'], where: /^What the service does$/, text: /no separate API subscription/, verdict: outside('a statement of the offer: no answer of the API shows a subscription') },
  { kinds: ['spec'], where: /^What the service does$/, text: /^An MCP server/, verdict: ruled('spec.auth.mcp-oauth') },
  { kinds: ['spec'], where: /^What the service does$/, text: /^Typical flow/, verdict: ruled('spec.states.terminal', 'spec.deliverable.download') },
  { kinds: ['spec'], where: /API key$/, text: /^\| name \|/, verdict: ruled('openapi.keys') },
  { kinds: ['spec'], where: /API key$/, text: /^\| scopes \|/, verdict: ruled('spec.key.scopes') },
  { kinds: ['spec'], where: /API key$/, text: /^\| key value \|/, verdict: ruled('spec.key.format', 'spec.key.shown-once') },
  { kinds: ['spec'], where: /API key$/, text: /created in the web app/, verdict: outside('the web app is no part of the API a client can call') },
  { kinds: ['spec'], where: /API key$/, text: /rotated or revoked/, verdict: ruled('openapi.keys', 'spec.auth.many-keys') },
  { kinds: ['spec'], where: /Token balance/, verdict: ruled('spec.balance.fields') },
  { kinds: ['spec'], where: /Target$/, text: /^\| (name|slug|description|brandKit) \|/, verdict: ruled('openapi.targets', 'spec.target.response') },
  { kinds: ['spec'], where: /Target$/, text: /^Response: the target object/, verdict: ruled('spec.target.response') },
  { kinds: ['spec'], where: /Build$/, text: /^\| (targetId|buildType|kind|objective|researchPolicy) \|/, verdict: ruled('openapi.build.echo', 'spec.build.create-response') },
  { kinds: ['spec'], where: /Build$/, text: /^\| (buildId|correlationId) \|/, verdict: ruled('spec.build.create-response') },
  { kinds: ['spec'], where: /Build$/, text: /^\| idempotent \|/, verdict: ruled('spec.build.idempotent-flag') },
  { kinds: ['spec'], where: /Build$/, text: /^Retrieval response/, verdict: ruled('spec.build.retrieval') },
  { kinds: ['spec'], where: /Deliverable$/, text: /Downloadable as Markdown/, verdict: ruled('spec.deliverable.download') },
  { kinds: ['spec'], where: /Deliverable$/, text: /^`id` \(string, UUID\)/, verdict: ruled('spec.build.retrieval') },
  { kinds: ['spec'], where: /Deliverable$/, text: /includes the sources and the claim verification/, verdict: ruled('spec.deliverable.full') },
  { kinds: ['spec'], where: /Transaction$/, text: /can be listed/, verdict: ruled('spec.tokens.transactions') },
  { kinds: ['spec'], where: /Error object$/, verdict: ruled('spec.error.shape') },
  { kinds: ['spec'], where: /^States and transitions$/, text: /status` values/, verdict: ruled('spec.states.values') },
  { kinds: ['spec'], where: /^States and transitions$/, text: /runs asynchronously/, verdict: ruled('spec.states.order') },
  { kinds: ['spec'], where: /^States and transitions$/, text: /end of waiting/, verdict: ruled('spec.states.terminal') },
  { kinds: ['spec'], where: /^States and transitions$/, text: /3 to 8 minutes/, verdict: ruled('spec.states.order') },
  { kinds: ['spec'], where: /^States and transitions$/, text: /^\| merging \|/, verdict: ruled('spec.states.order', 'spec.states.deliverables') },
  { kinds: ['spec'], where: /^States and transitions$/, text: /^\| (pending|researching|drafting|critiquing) \|/, verdict: ruled('spec.states.order') },
  { kinds: ['spec'], where: /^Endpoints$/, text: /start with `\/api\/v1`/, verdict: ruled('spec.versioning') },
  { kinds: ['spec'], where: /^Endpoints$/, text: /authentication header/, verdict: ruled('spec.endpoints.auth-header') },
  { kinds: ['spec'], where: /^Endpoints$/, text: /bodies are JSON/, verdict: ruled('spec.endpoints.json') },
  { kinds: ['spec'], where: /^Endpoints$/, text: /^\| (GET|POST) \|/, verdict: ruled('spec.endpoints.scope', 'openapi.responses') },
  { kinds: ['spec'], where: /^Endpoints$/, text: /^`Idempotency-Key`/, verdict: ruled('spec.idempotency.header') },
  { kinds: ['spec'], where: /^Endpoints$/, text: /required by recommendation/, verdict: outside('the spec leaves open whether a server enforces the header: neither answer breaks it (strict: openapi.yaml accepts a build without one)') },
  { kinds: ['spec'], where: /^Endpoints$/, text: /^Good keys are/, verdict: outside('advice to clients on choosing keys') },
  { kinds: ['spec'], where: /^Endpoints$/, text: /same key is reused/, verdict: ruled('spec.idempotency.replay', 'spec.idempotency.window') },
  { kinds: ['spec'], where: /^Endpoints$/, text: /Path parameter `:id`/, verdict: ruled('spec.endpoints.path-id') },
  { kinds: ['spec'], where: /^Endpoints$/, text: /consumes tokens/, verdict: ruled('spec.tokens.insufficient') },
  { kinds: ['spec'], where: /^Authentication$/, text: /^REST calls carry/, verdict: ruled('spec.auth.bearer') },
  { kinds: ['spec'], where: /^Authentication$/, text: /^Scopes:/, verdict: ruled('spec.auth.scopes') },
  { kinds: ['spec'], where: /^Authentication$/, text: /shown only once/, verdict: ruled('spec.key.shown-once', 'spec.auth.many-keys') },
  { kinds: ['spec'], where: /^Authentication$/, text: /^Write-type operations require/, verdict: ruled('spec.auth.scopes', 'spec.endpoints.scope') },
  { kinds: ['spec'], where: /^Authentication$/, text: /^Multiple keys with different scopes/, verdict: ruled('spec.auth.many-keys') },
  { kinds: ['spec'], where: /^Authentication$/, text: /^Keys can be rotated or revoked/, verdict: ruled('openapi.keys') },
  { kinds: ['spec'], where: /^Authentication$/, text: /served under the path `\/mcp`/, verdict: ruled('spec.auth.mcp-oauth') },
  { kinds: ['spec'], where: /^Authentication$/, text: /yields HTTP 401/, verdict: ruled('spec.auth.401') },
  { kinds: ['spec'], where: /^Authentication$/, text: /yields HTTP 403/, verdict: ruled('spec.auth.403') },
  { kinds: ['spec'], where: /^Authentication$/, text: /MCP server uses OAuth/, verdict: ruled('spec.auth.mcp-oauth', 'oauth.scope-vocabulary') },
  { kinds: ['spec'], where: /^Events$/, text: /polling/, verdict: ruled('spec.events.polling') },
  { kinds: ['spec'], where: /^Errors$/, text: /shape `\{error, code, details\}`/, verdict: ruled('spec.error.shape') },
  { kinds: ['spec'], where: /^Errors$/, text: /^\| 401 \| UNAUTHORIZED/, verdict: ruled('spec.errors.401-unauthorized') },
  { kinds: ['spec'], where: /^Errors$/, text: /^\| 401 \| INVALID_API_KEY/, verdict: ruled('spec.errors.401-invalid-key') },
  { kinds: ['spec'], where: /^Errors$/, text: /^\| 403 \|/, verdict: ruled('spec.auth.403') },
  { kinds: ['spec'], where: /^Errors$/, text: /^\| 402 \||^INSUFFICIENT_TOKENS carries/, verdict: ruled('spec.errors.402') },
  { kinds: ['spec'], where: /^Errors$/, text: /^\| 429 \|/, verdict: ruled('spec.errors.429') },
  { kinds: ['spec'], where: /^Errors$/, text: /VALIDATION_ERROR \| request body/, verdict: ruled('spec.errors.validation') },
  { kinds: ['spec'], where: /^Limits$/, text: /^\| Per API key \| (60|10) /, verdict: ruled('spec.limits.per-key') },
  { kinds: ['spec'], where: /^Limits$/, text: /^\| Per API key \| 20 /, verdict: ruled('spec.limits.generation') },
  { kinds: ['spec'], where: /^Limits$/, text: /^\| Per user \|/, verdict: ruled('spec.limits.per-user') },
  { kinds: ['spec'], where: /^Limits$/, text: /^\| Idempotency window \|/, verdict: ruled('spec.idempotency.window') },
  { kinds: ['spec'], where: /^Limits$/, text: /^\| X-RateLimit-/, verdict: ruled('spec.limits.headers', 'spec.limits.header-meaning') },
  { kinds: ['spec'], where: /^Limits$/, text: /rejected with 429/, verdict: ruled('spec.errors.429') },
  { kinds: ['spec'], where: /^Limits$/, text: /^Cost: /, verdict: ruled('spec.limits.cost') },
  { kinds: ['spec'], where: /^Limits$/, text: /cost depends/, verdict: ruled('spec.limits.cost-depends') },
  { kinds: ['spec'], where: /^Versioning$/, text: /path prefix/, verdict: ruled('spec.versioning') },
];

const QUOTA = unchecked('a 409 of a quota (the operator\'s limit on what an account holds): no check fills a quota yet');

/** Every status openapi.yaml declares per operation: the rule of that status class, or the operation's own. */
const STATUSES: SourceMapping[] = [
  { kinds: ['openapi.status'], text: / answers 2\d\d$/, verdict: ruled('openapi.responses', 'openapi.statuses') },
  { kinds: ['openapi.status'], text: / answers 400$/, verdict: ruled('openapi.validation') },
  { kinds: ['openapi.status'], text: / answers 401$/, verdict: ruled('spec.auth.401') },
  { kinds: ['openapi.status'], text: / answers 402$/, verdict: ruled('spec.errors.402', 'openapi.prices') },
  { kinds: ['openapi.status'], text: / answers 403$/, verdict: ruled('spec.auth.403') },
  { kinds: ['openapi.status'], text: / answers 404$/, verdict: ruled('openapi.not-found') },
  { kinds: ['openapi.status'], where: /(create|update)Target$/, text: / answers 409$/, verdict: ruled('openapi.targets') },
  { kinds: ['openapi.status'], where: /rotateApiKey$/, text: / answers 409$/, verdict: ruled('openapi.keys.rotate-revoked') },
  { kinds: ['openapi.status'], where: /postChatMessage$/, text: / answers 409$/, verdict: ruled('openapi.chat.cap') },
  { kinds: ['openapi.status'], where: /purchaseTokens$/, text: / answers 409$/, verdict: ruled('openapi.purchases') },
  { kinds: ['openapi.status'], text: / answers 409$/, verdict: QUOTA },
  { kinds: ['openapi.status'], text: / answers 41[35]$/, verdict: ruled('openapi.transport') },
  { kinds: ['openapi.status'], text: / answers 429$/, verdict: ruled('spec.errors.429') },
  { kinds: ['openapi.status'], text: / answers 50[03]$/, verdict: outside('a server fault or an unavailable server is no answer a client can provoke; every response is held to no 5xx (openapi.no-5xx)') },
];

/** Every header openapi.yaml declares per response. */
const HEADERS: SourceMapping[] = [
  { kinds: ['openapi.header'], text: /X-RateLimit-/, verdict: ruled('spec.limits.headers') },
  { kinds: ['openapi.header'], text: /X-Correlation-Id$/, verdict: ruled('openapi.correlation-id') },
  { kinds: ['openapi.header'], text: /Retry-After$/, verdict: ruled('openapi.retry-after') },
  { kinds: ['openapi.header'], text: /Location$/, verdict: ruled('openapi.location') },
  { kinds: ['openapi.header'], where: /downloadDeliverable/, text: /Content-Disposition$/, verdict: ruled('openapi.content-disposition') },
  { kinds: ['openapi.header'], text: /Content-Disposition$/, verdict: unchecked('the Content-Disposition of an image or audio file is validated against its schema only; no check reads its file name yet') },
  // Required, with the pattern ^Bearer: held on every 401 by the validator, and every operation's 401 is provoked (auth.no-key.*).
  { kinds: ['openapi.header'], text: /WWW-Authenticate$/, verdict: ruled('openapi.responses', 'spec.auth.401') },
];

/**
 * Every schema keyword: of a response, held on every response the run sees by the contract
 * validator; of a request, the constraint a server must refuse a request for breaking, or the
 * default it must take.
 */
const KEYWORDS: SourceMapping[] = [
  { kinds: ['openapi.keyword'], side: 'response', verdict: ruled('openapi.responses') },
  // The defaults the properties leave out and read back (test/contract-properties.test.ts holds each to its check).
  { kinds: ['openapi.keyword'], where: new RegExp(`^operation (${DEFAULT_LIMIT_LISTS.join('|')}), query parameter limit$`), text: /: default /, verdict: ruled('openapi.properties.defaults') },
  { kinds: ['openapi.keyword'], where: /^schema (TopicSuggestionRequest\.count|QuoteSuggestionRequest\.count|KeywordExtractionRequest\.max)$/, text: /: default /, verdict: ruled('openapi.properties.defaults') },
  { kinds: ['openapi.keyword'], text: /: default /, verdict: unchecked('a list under a deliverable: no property check fills its pages without a build yet') },
  // Request enums whose every value a check sends: the round trips (in turn, body by body), every kind and the suite, both download formats.
  { kinds: ['openapi.keyword'], side: 'request', where: new RegExp(`^schema (${ROUND_TRIP_ENUMS.join('|')})$`), text: /: one of the values is /, verdict: ruled('openapi.properties.round-trip') },
  { kinds: ['openapi.keyword'], side: 'request', where: /^schema (ContentKind|BuildType)$/, text: /: one of the values is /, verdict: ruled('openapi.prices') },
  { kinds: ['openapi.keyword'], side: 'request', where: /^operation downloadDeliverable, query parameter format$/, text: /: one of the values is /, verdict: ruled('spec.deliverable.download') },
  { kinds: ['openapi.keyword'], side: 'request', where: /^schema (TransactionType|BuildStatus|ApiKeyStatus)$/, text: /: one of the values is /, verdict: unchecked('a list filter: the filter checks send the one value that separates the items listed, not every value') },
  { kinds: ['openapi.keyword'], side: 'request', text: /: one of the values is /, verdict: unchecked('a field of a body that spends tokens (builds, images, audio): each value is not sent by a check yet') },
  // Each constraint of the bodies the properties generate, broken once (the test holds each statement to a broken constraint).
  { kinds: ['openapi.keyword'], side: 'request', where: REFUSED_SCHEMAS, text: REFUSED_KEYWORDS, verdict: ruled('openapi.properties.refusals', 'openapi.validation') },
  { kinds: ['openapi.keyword'], side: 'request', verdict: ruled('openapi.validation') },
];

const BEHAVIOUR = String.raw`is|are|was|were|be|been|gets?|answers?|returns?|must|may|can|cannot|needs?|takes?|holds?|has|have|moves?|counts?|fails?|refused|refuses|shown|starts?|ends?|draws?|follows?|names?|forces?|keeps?|makes?|sends?|sets?|uses?|charges?|costs?|expires?|lists?|reads?|works?|stays?|does|do|only|never|always|once|at most|at least|per|within|until|after|before|unless|otherwise|instead|default`;
const NAMING = new RegExp(String.raw`^(?!.*(${BEHAVIOUR}))[^;]{1,160}\.?$`, 'i');

/** Sentences of descriptions, where their words say which rule holds them. */
const DESCRIPTIONS: SourceMapping[] = [
  { kinds: ['openapi.description'], text: /^(Inferred|Inferred \(DESIGN\.md\)|Status code inferred)\.?$/, verdict: outside('a marker that openapi.yaml infers what it describes (x-inferred), which its other statements carry') },
  { kinds: ['openapi.description'], text: /holds at most 100 messages|conversation is full \(100 messages\)/, verdict: ruled('openapi.chat.cap') },
  { kinds: ['openapi.description'], text: /^A rate limit was exceeded/, verdict: ruled('spec.errors.429', 'openapi.retry-after') },
  { kinds: ['openapi.description'], text: /^Issues a new key with the same name and scopes/, verdict: ruled('openapi.keys') },
  { kinds: ['openapi.description'], text: /key's value once|never shown again|shown this once/, verdict: ruled('spec.key.shown-once') },
  { kinds: ['openapi.description'], text: /^Rotating a key with a scope the calling key lacks/, verdict: ruled('openapi.keys.rotate-revoked', 'openapi.keys.rotate-no-escalation') },
  { kinds: ['openapi.description'], text: /slug is unique within the account|new slug must be free/, verdict: ruled('openapi.targets') },
  { kinds: ['openapi.description'], text: /^Idempotent replay; the existing build/, verdict: ruled('spec.idempotency.replay') },
  { kinds: ['openapi.description'], text: /^What is left out comes from the target's brand-kit `pressRelease` defaults/, verdict: ruled('openapi.build.press-release-defaults') },
  { kinds: ['openapi.description'], text: /^Idempotent replay; the earlier purchase|already used for a purchase within 24 hours|^Books a `purchase` transaction/, verdict: ruled('openapi.purchases') },
  { kinds: ['openapi.description'], text: /anyone can open without a key|link stops working at once|^What a share link shows|^Shows the deliverable's title/, verdict: ruled('openapi.sharing') },
  { kinds: ['openapi.description'], text: /^The cost, charged at creation|^Each image costs 1 token/, verdict: ruled('openapi.prices') },
  { kinds: ['openapi.description'], text: /^(Deleted|Revoked); no body\.$/, verdict: ruled('openapi.statuses') },
  { kinds: ['openapi.description'], text: /already has a listen version in this voice/, verdict: ruled('openapi.audio.one-per-voice') },
  { kinds: ['openapi.description'], text: /^A playable WAV file/, verdict: ruled('openapi.audio.file') },
  { kinds: ['openapi.description'], text: /^`brief` is ready to send as is/, verdict: ruled('openapi.suggestions.brief') },
  { kinds: ['openapi.description'], text: /^The account holds its quota|^`details\.quota` names it/, verdict: QUOTA },
  { kinds: ['openapi.description'], text: /^Recommended on every build creation; not enforced/, verdict: outside('the spec leaves open whether a server enforces the header: neither answer breaks it') },
  { kinds: ['openapi.description'], text: /^The service cannot answer now|^The simulator answers `SERVICE_UNAVAILABLE`/, verdict: outside('an unavailable server is no answer a client can provoke (the simulator\'s fault rules are its control API\'s)') },
  { kinds: ['openapi.description'], text: /^The spec's codes \(UNAUTHORIZED/, verdict: ruled('spec.error.shape', 'openapi.responses') },
  { kinds: ['openapi.description'], text: /^Called with an OAuth access token \(an assistant on `\/mcp`\)/, verdict: ruled('openapi.keys.no-minting-by-token') },
  { kinds: ['openapi.description'], where: /^schema TokenPurchaseCreate\.bundleId$/, text: /an unknown one is 404/, verdict: ruled('openapi.purchases') },
  { kinds: ['openapi.description'], where: /^schema Transaction\.amount$/, text: /^Signed; negative for a charge/, verdict: ruled('openapi.ledger.entries', 'openapi.ledger') },
  { kinds: ['openapi.description'], text: /^Costs no tokens \(the spec names no audio price/, verdict: ruled('openapi.audio.free') },
  { kinds: ['openapi.description'], text: /^Nothing is stored or charged; scope `svc:write`/, verdict: ruled('openapi.suggestions.free', 'spec.auth.403') },
  { kinds: ['openapi.description'], text: /^Scope `svc:write` \(inferred\): a suggestion keeps nothing/, verdict: ruled('spec.auth.403', 'openapi.suggestions.free', 'spec.limits.generation') },
  { kinds: ['openapi.description'], text: /^Quotes for a speaker on a topic, in the press-release modes/, verdict: ruled('spec.suggestions') },
  { kinds: ['openapi.description'], text: /^`pressRelease` fits only kind `press_release`/, verdict: ruled('openapi.build.options-fit-kind') },
  { kinds: ['openapi.description'], where: /^schema BuildCreate\.socialPlatforms$/, text: /refused on other kinds\); default x and linkedin/, verdict: ruled('openapi.build.options-fit-kind', 'openapi.build.options-in-content') },
  { kinds: ['openapi.description'], where: /^schema Build\.(socialPlatforms|libraryItemIds)$/, text: /^As given at creation; present only when it was/, verdict: ruled('openapi.build.echo') },
  { kinds: ['openapi.description'], where: /^schema Claim\.(confidence|sourceIds)$/, verdict: ruled('openapi.deliverable.claims') },
  { kinds: ['openapi.description'], text: /^One social post; `text` includes the hashtags/, verdict: ruled('openapi.deliverable.social-posts') },
  { kinds: ['openapi.description'], text: /^Newest first; revoked and expired links are included|^Options of a share link; without `expiresInSeconds`/, verdict: ruled('openapi.sharing.list') },
  { kinds: ['openapi.description'], text: /^Changes only the fields given; the type cannot change/, verdict: ruled('openapi.library.update') },
  { kinds: ['openapi.description'], text: /^`brandKit` is merged part by part: `voice` and `tone` replace theirs/, verdict: ruled('openapi.targets.brand-kit-merge') },
  { kinds: ['openapi.description'], where: /^schema TargetUpdate$/, text: /^Any of a target's fields; what is left out keeps its value, the brand kit is merged part by part/, verdict: ruled('openapi.targets', 'openapi.targets.brand-kit-merge') },
  { kinds: ['openapi.description'], where: /^schema ChatMessage\.references$/, text: /always empty on user messages/, verdict: ruled('openapi.chat.references') },
  // Its voice and tone are prose, which no check can judge; the library items it names are checked.
  { kinds: ['openapi.description'], where: /^operation postChatMessage$/, text: /^The reply answers the message in the target's voice and tone, and names the target's library items/, verdict: ruled('openapi.chat.references') },
  { kinds: ['openapi.description'], where: /^schema BuildCreate$/, text: /^A `suite` build has 2 to 20 `pages`; a `single` build has one/, verdict: ruled('openapi.build.pages') },
  { kinds: ['openapi.description'], where: /^schema Transaction\.bundleId$/, text: /^The token bundle a purchase bought; null for other entries/, verdict: ruled('openapi.ledger.entries') },
  { kinds: ['openapi.description'], where: /^schema OAuthGrant\.keyId$/, text: /revoking or rotating it revokes the grant/, verdict: ruled('openapi.grants.follow-key') },
  { kinds: ['openapi.description'], text: /^A logo with `targetId` takes the target's name as its text|^The overlay as drawn; `targetId` is the target whose name it shows/, verdict: ruled('openapi.images.logo') },
  { kinds: ['openapi.description'], where: /^schema BriefSuggestionRequest$/, text: /`kind` forces the kind instead of inferring it/, verdict: ruled('openapi.suggestions.brief-kind') },
  { kinds: ['openapi.description'], where: /^schema QuoteSuggestionRequest$/, text: /^Who speaks, on what, in which mode/, verdict: ruled('spec.suggestions') },
  { kinds: ['openapi.description'], where: /^operation listVoices$/, text: /^The five voices of the listen version/, verdict: ruled('spec.audio.voices') },
  { kinds: ['openapi.description'], where: /^schema TokenBundle$/, text: /the same bundles pay for web app, API and MCP calls/, verdict: ruled('spec.tokens.same-bundles') },
  // Provenance: which parts the spec states and which openapi.yaml infers (the parts are statements of their own).
  { kinds: ['openapi.description'], text: /^Inferred \(the spec|is stated by the spec; |stated by the spec; the |^(Field names|Fields) inferred|^Inferred; the spec names|^The spec says the same token bundles|^Name and scopes \(spec, API key\); the limits are inferred|^An API key as it may be shown/, verdict: outside('it says which parts the spec states and which openapi.yaml infers; the parts are statements of their own') },
  // A sentence that only names what a schema, field or response is (no verb of behaviour): its keywords are its statements.
  { kinds: ['openapi.description'], text: NAMING, verdict: outside('it names what the schema, field or response is; its keywords, each a statement of its own, say what it holds') },
];

export const SOURCE_MAP: readonly SourceMapping[] = [...SPEC, ...STATUSES, ...HEADERS, ...KEYWORDS, ...DESCRIPTIONS];

/** The verdict of the first mapping that takes a statement (its index too), or undefined. */
export function verdictOf(statement: SourceStatement, map: readonly SourceMapping[] = SOURCE_MAP): { verdict: Verdict; index: number } | undefined {
  const index = map.findIndex(
    (m) => m.kinds.includes(statement.kind) && (!m.side || m.side === statement.side) && (!m.where || m.where.test(statement.where)) && (!m.text || m.text.test(statement.text)),
  );
  return index < 0 ? undefined : { verdict: (map[index] as SourceMapping).verdict, index };
}
