import type { Check } from '../check.js';
import type { ContractLevel } from '../../shared/contract-validator.js';
import type { OperationInfo } from '../../shared/openapi-model.js';
import { audioChecks } from './audio.js';
import { authMatrixChecks } from './auth-matrix.js';
import { buildKindChecks } from './build-kinds.js';
import { buildChecks } from './builds.js';
import { buildFilterChecks } from './build-filters.js';
import { buildsTogetherChecks } from './builds-together.js';
import { buildOptionChecks } from './build-options.js';
import { chatChecks } from './chat.js';
import { chatReferenceChecks } from './chat-references.js';
import { claimChecks } from './claims.js';
import { credentialChecks } from './credentials.js';
import { deliverableChecks } from './deliverables.js';
import { genericChecks } from './generic.js';
import { idempotencyChecks } from './idempotency.js';
import { idempotencyEdgeChecks } from './idempotency-edges.js';
import { capChecks } from './caps.js';
import { everyKeyChecks } from './every-key.js';
import { mcpToolChecks } from './mcp-tools.js';
import { mcpWriteToolChecks } from './mcp-write-tools.js';
import { oauthFlowChecks } from './oauth-flow.js';
import { scopeOnExistingChecks } from './scope-existing.js';
import { valuesOverTimeChecks } from './values-over-time.js';
import { imageChecks } from './images.js';
import { imageLogoChecks } from './image-logos.js';
import { isolationChecks } from './isolation.js';
import { keyChecks } from './keys.js';
import { keyCapChecks } from './key-cap.js';
import { keyInFlightChecks } from './key-in-flight.js';
import { ledgerEdgeChecks } from './ledger-edges.js';
import { libraryChecks } from './library.js';
import { mcpChecks } from './mcp.js';
import { oauthChecks } from './oauth.js';
import { oauthBoundaryChecks } from './oauth-boundaries.js';
import { oauthGrantChecks } from './oauth-grants.js';
import { oauthStepChecks } from './oauth-steps.js';
import { mcpProtocolChecks } from './mcp-protocol.js';
import { mcpToolSchemaChecks } from './mcp-tool-schemas.js';
import { mcpTaskChecks } from './mcp-tasks.js';
import { optionChecks } from './options.js';
import { optionFitChecks } from './option-fit.js';
import { parameterChecks } from './parameters.js';
import { propertyChecks } from '../properties/index.js';
import { rateLimitChecks } from './rate-limits.js';
import { referenceChecks } from './references.js';
import { requiredFieldChecks } from './required-fields.js';
import { sharingChecks } from './sharing.js';
import { suggestionChecks } from './suggestions.js';
import { targetEditChecks } from './target-edits.js';
import { targetChecks } from './targets.js';
import { targetSlugChecks } from './target-slugs.js';
import { targetSnapshotChecks } from './target-snapshots.js';
import { tokenPurchaseChecks } from './token-purchases.js';
import { tokenChecks } from './tokens.js';
import { transportChecks } from './transport.js';

/**
 * Every check of a level, in the order they run. The blog build is polled right after its
 * creation (to see each status), its replays come before any long clock move, the
 * capabilities openapi.yaml infers (strict level) follow the builds, the purchase (which
 * raises the balance) comes after every check that needs a small one, and the checks that
 * exhaust a rate limit come last.
 */
export function allChecks(operations: readonly OperationInfo[], level: ContractLevel): Check[] {
  const byId = (checks: Check[]) => new Map(checks.map((c) => [c.id, c]));
  const tokens = byId(tokenChecks());
  const limits = byId(rateLimitChecks());
  const idempotency = byId(idempotencyChecks());
  const purchases = byId(tokenPurchaseChecks());
  const edges = byId(idempotencyEdgeChecks());
  const caps = byId(capChecks());
  const overTime = byId(valuesOverTimeChecks());
  const pick = (map: Map<string, Check>, ...ids: string[]) => ids.map((id) => map.get(id) as Check);

  const specific: Check[] = [
    ...pick(tokens, 'tokens.balance', 'tokens.read-only'),
    ...pick(limits, 'limits.headers', 'limits.remaining-falls'),
    ...targetChecks(),
    ...pick(idempotency, 'builds.created'),
    ...buildChecks(),
    ...pick(tokens, 'tokens.blog-cost', 'tokens.charge-transaction', 'tokens.insufficient', 'tokens.insufficient-partial'),
    ...pick(idempotency, 'idempotency.replay', 'idempotency.no-charge', 'idempotency.no-new-build', 'idempotency.statuses'),
    ...pick(edges, 'idempotency.other-body', 'idempotency.other-key', 'idempotency.after-failure', 'idempotency.concurrent'),
    ...deliverableChecks(),
    ...claimChecks(),
    ...buildKindChecks(),
    ...pick(idempotency, 'idempotency.window'),
    ...pick(edges, 'idempotency.window-edge'),
    ...pick(overTime, 'builds.over-time'),
    ...buildsTogetherChecks(),
    ...buildFilterChecks(),
    ...buildOptionChecks(),
    ...optionFitChecks(),
    ...targetEditChecks(),
    ...targetSlugChecks(),
    ...targetSnapshotChecks(),
    ...libraryChecks(),
    ...sharingChecks(),
    ...audioChecks(),
    ...imageChecks(),
    ...imageLogoChecks(),
    ...chatChecks(),
    ...chatReferenceChecks(),
    ...pick(caps, 'chat.cap'),
    ...suggestionChecks(),
    ...keyChecks(),
    ...everyKeyChecks(),
    ...keyCapChecks(),
    ...keyInFlightChecks(),
    // Closing the gaps: every credential form, isolation between accounts, references, parameters.
    ...credentialChecks(),
    ...isolationChecks(operations),
    ...referenceChecks(operations),
    ...parameterChecks(operations),
    ...requiredFieldChecks(operations),
    ...optionChecks(),
    ...propertyChecks(operations),
    ...pick(caps, 'audio.voices-per-deliverable'),
    ...transportChecks(operations),
    ...mcpChecks(operations),
    ...mcpToolChecks(operations),
    ...mcpWriteToolChecks(),
    ...oauthChecks(),
    ...oauthFlowChecks(),
    ...oauthGrantChecks(),
    ...oauthStepChecks(),
    ...oauthBoundaryChecks(),
    ...mcpProtocolChecks(),
    ...mcpToolSchemaChecks(operations),
    ...mcpTaskChecks(),
    ...pick(purchases, 'tokens.bundles', 'tokens.transaction-by-id', 'tokens.purchase'),
    ...ledgerEdgeChecks(),
    ...pick(overTime, 'tokens.ledger'),
  ];
  const exhausting = pick(limits, 'limits.exhaust-default', 'limits.exhaust-build-create', 'limits.exhaust-generation', 'limits.exhaust-user');
  const withScenario = new Set([...specific, ...exhausting].flatMap((c) => c.covers ?? []));
  const checks = [...specific, ...authMatrixChecks(operations), ...scopeOnExistingChecks(operations), ...genericChecks(operations, withScenario), ...exhausting];
  const ids = new Set<string>();
  for (const c of checks) {
    if (ids.has(c.id)) throw new Error(`two checks have the id ${c.id}`);
    ids.add(c.id);
  }
  // A documented run holds the service only to what the spec states: strict checks are not part of it.
  return level === 'strict' ? checks : checks.filter((c) => c.level === 'documented');
}
