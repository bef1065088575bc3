import * as z from 'zod';
import { SCOPES } from '../credentials/api-key.js';
import { PIPELINE_STAGES } from '../builds/pipeline.js';
import { CONTENT_KINDS } from '../content/types.js';
import { DEMO_CLIENT_ID } from '../oauth/demo-client.js';
import { IMAGE_MOODS, IMAGE_SIZES, IMAGE_STYLES, LOGO_POSITIONS } from '../media/image-options.js';
import { VOICE_IDS } from '../media/voices.js';
import { contractPattern } from './contract-rules.js';
import { legacyMcpTasks, savedTask } from './mcp-tasks-snapshot.js';
import { each, fields } from './snapshot-check.js';
import { MAX_CHAT_MESSAGES } from '../chat/chat-service.js';

/**
 * The saved form of a whole simulation, checked record by record on the way back in: a state
 * file or a fixture someone edited by hand must fail with the path of the fault, never load
 * half-way or break a later response.
 */
export const SNAPSHOT_FORMAT = 'content-sim-state';
export const SNAPSHOT_VERSION = 1;

const ms = z.number().int().min(0).max(253_402_300_799_999);
const msOrNull = ms.nullable();
/** Every record's id as the API documents it (`format: uuid`) and issues it: lower case, so it is safe in any path. */
const id = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'must be a UUID in lower case, as the API issues ids');
/** The rules of the API's requests, read from the contract itself: a restored record is one the API could have made. */
const slug = z.string().max(64).regex(contractPattern('TargetCreate', 'slug'), 'must be a slug as the API accepts it (lower-case words joined by hyphens)');
const email = z.string().max(254).regex(contractPattern('MediaContact', 'email'), 'must be an email address as the API accepts it');
const bundleId = z.string().regex(contractPattern('TokenBundle', 'id'), 'must be a bundle id');
const shareToken = z.string().regex(/^[0-9a-f]{48}$/, 'must be 48 hex digits, as the simulator makes share tokens');
const text = z.string().max(1_000_000);
const rngState = z.tuple([z.number().int(), z.number().int(), z.number().int(), z.number().int()]);
const scopes = z.array(z.enum(SCOPES as readonly ['svc:read', 'svc:write']));
const libraryType = z.enum(['cta', 'glossary_term', 'product_blurb', 'brand_asset']);
const quoteMode = z.enum(['verbatim', 'polish', 'generate']);
const contact = z.object({ name: text, email, phone: text.optional() });

const brandKit = z.object({
  voice: text,
  tone: text,
  seo: z.object({ primaryKeywords: z.array(text), secondaryKeywords: z.array(text), metaDescriptionMaxLength: z.number().int() }),
  pressRelease: z.object({ boilerplate: text, mediaContact: contact.nullable(), datelineCity: text, defaultQuoteMode: quoteMode }),
});
const targetSnapshot = z.object({ id, name: text, slug, description: text, brandKit });
const librarySnapshot = z.object({ id, type: libraryType, name: text, content: text, url: text.optional() });

const apiKey = z.object({
  id, accountId: id, name: text, hash: z.string().regex(/^[0-9a-f]{64}$/), hint: text, scopes,
  createdAt: ms, revokedAt: msOrNull, lastUsedAt: msOrNull, rotatedFromId: id.nullable(), replacedById: id.nullable(),
});
const transaction = z.object({
  id, type: z.enum(['purchase', 'grant', 'build_charge', 'build_refund', 'image_charge']), amount: z.number().int(),
  balanceAfter: z.number().int(), description: text, buildId: id.nullable(), bundleId: bundleId.optional(), createdAt: ms,
});
const target = z.object({ id, name: text, slug, description: text, brandKit, createdAt: ms, updatedAt: ms });
const libraryItem = z.object({ id, targetId: id, type: libraryType, name: text, content: text, url: text.nullable(), createdAt: ms, updatedAt: ms });
const share = z.object({ id, deliverableId: id, token: shareToken, createdAt: ms, expiresAt: msOrNull, revokedAt: msOrNull });
const schedule = z.object({
  createdAt: ms,
  stageStarts: z.tuple([ms, ms, ms, ms]),
  completeAt: ms,
  failure: z.object({ stage: z.enum(PIPELINE_STAGES), at: ms, reason: text }).nullable(),
});
const pressRelease = z.object({
  dateline: z.object({ city: text.optional(), date: text.optional() }).optional(),
  quotes: z.array(z.object({ speaker: text, title: text.optional(), text: text.optional(), mode: quoteMode.optional() })).optional(),
  boilerplate: text.optional(),
  mediaContact: contact.optional(),
});
const build = z.object({
  id, accountId: id, targetId: id, buildType: z.enum(['single', 'suite']), kind: z.enum(CONTENT_KINDS), objective: text,
  researchPolicy: z.enum(['required', 'optional', 'none']), researchMode: z.enum(['standard', 'deep']),
  qualityMode: z.enum(['standard', 'premium']), pages: z.number().int().min(1).max(20), generateImages: z.boolean(),
  pressRelease: pressRelease.optional(), socialPlatforms: z.array(z.enum(['x', 'linkedin', 'facebook', 'instagram', 'threads'])).optional(),
  libraryItemIds: z.array(id).optional(), cost: z.number().int(), correlationId: text, idempotencyKey: text.nullable(), createdAt: ms,
  schedule, target: targetSnapshot, libraryItems: z.array(librarySnapshot), deliverableIds: z.array(id),
}).superRefine((b, ctx) => {
  // A build keeps each of these once: two values that disagree have no faithful restore.
  if (b.targetId !== b.target.id) ctx.addIssue({ code: 'custom', path: ['targetId'], message: 'must equal target.id' });
  if (b.schedule.createdAt !== b.createdAt) ctx.addIssue({ code: 'custom', path: ['schedule', 'createdAt'], message: 'must equal createdAt' });
  if (b.deliverableIds.length !== b.pages) ctx.addIssue({ code: 'custom', path: ['deliverableIds'], message: 'must hold one id per page' });
  // The items the build was made with are the ones it names: each once, in both lists.
  const named = new Set(b.libraryItemIds ?? []);
  const kept = new Set(b.libraryItems.map((item) => item.id));
  if (kept.size !== b.libraryItems.length || kept.size !== named.size || [...kept].some((itemId) => !named.has(itemId))) {
    ctx.addIssue({ code: 'custom', path: ['libraryItems'], message: 'must be the items of libraryItemIds, each once' });
  }
});
const image = z.object({
  id, prompt: text, style: z.enum(IMAGE_STYLES), mood: z.enum(IMAGE_MOODS), colors: z.array(z.string().regex(/^#[0-9a-fA-F]{6}$/)).max(5),
  size: z.enum(IMAGE_SIZES), logo: z.object({ text, position: z.enum(LOGO_POSITIONS), targetId: id.nullable() }).nullable(),
  cost: z.number().int(), createdAt: ms,
});
const audio = z.object({
  id, deliverableId: id, buildId: id, voice: z.enum(VOICE_IDS), durationSeconds: z.number().min(0), sampleRate: z.number().int().positive(),
  wordCount: z.number().int().min(0), bytes: z.number().int().min(0), createdAt: ms,
});
const chatMessage = z.object({
  id, role: z.enum(['user', 'assistant']), content: text,
  references: z.array(z.object({ libraryItemId: id, type: libraryType, name: text })), createdAt: ms,
});
const chat = z.object({ id, targetId: id, title: text, target: targetSnapshot, messages: z.array(chatMessage).max(MAX_CHAT_MESSAGES), createdAt: ms, updatedAt: ms }).refine(
  (c) => c.target.id === c.targetId,
  { path: ['target', 'id'], message: 'must equal targetId' },
);

/** Records with their list positions (so cursors stay valid), ascending. */
function collection<T extends z.ZodType<{ id: string }>>(record: T) {
  return z.object({ nextSeq: z.number().int().min(1), entries: z.array(z.tuple([z.number().int().min(1), record])) });
}
const idempotency = z.array(z.tuple([text, id, ms]));

const account = z.object({
  id, name: text, createdAt: ms, balance: z.number().int(), openingBalance: z.number().int().min(0).default(0), lifetimePurchased: z.number().int().min(0), lifetimeUsed: z.number().int().min(0),
  idStream: rngState,
  keys: collection(apiKey), transactions: collection(transaction), targets: collection(target), builds: collection(build),
  library: collection(libraryItem), shares: collection(share), images: collection(image), audio: collection(audio), chats: collection(chat),
  /** The account's MCP tasks (absent in snapshots saved before tasks were kept per account). */
  mcpTasks: collection(savedTask).default({ nextSeq: 1, entries: [] }),
  deliverables: z.array(z.tuple([id, z.object({ buildId: id, pageIndex: z.number().int().min(0) })])),
  audioByDeliverableVoice: z.array(z.tuple([text, id])),
  slugs: z.array(z.tuple([text, id])),
  idempotency, purchaseIdempotency: idempotency,
  pendingRefunds: z.array(z.object({ buildId: id, at: ms })),
  /** The account's own clock, when it has one (else it follows the simulator's). */
  clock: z.object({ now: ms, frozen: z.boolean() }).optional(),
});

/** What the authorization server issues: 256 random bits in base64url, after a prefix; kept only as SHA-256 digests. */
const digest = z.string().regex(/^[0-9a-f]{64}$/, 'must be a SHA-256 digest in hex');
const secret = (prefix: string) => z.string().regex(new RegExp(`^${prefix}[A-Za-z0-9_-]{43}$`), `must be ${prefix ? `"${prefix}" and ` : ''}43 base64url characters, as the server issues them`);
/** A registered client's id, or the URL of a client metadata document (https; http on loopback for local testing). */
const documentUrl = z.string().max(2000).regex(/^(https:\/\/|http:\/\/(127\.0\.0\.1|localhost|\[::1\])[:/])[^?#\s]+$/, 'must be the URL of a client metadata document');
const clientId = z.union([z.literal(DEMO_CLIENT_ID), secret('client_'), documentUrl]);
const grantId = secret('grant_');
const oauth = z.object({
  clients: z.array(z.object({ clientId, clientName: text, redirectUris: z.array(text), issuedAt: ms, lastUsedAt: ms.optional() })),
  pending: z.array(z.object({
    id: secret(''), csrf: text, clientId, redirectUri: text, state: text.nullable(), challenge: text, scopes, resource: text, expiresAt: ms,
  })),
  codes: z.array(z.tuple([digest, z.object({
    clientId, redirectUri: text, challenge: text, resource: text, scopes, accountId: id, keyId: id.optional(), expiresAt: ms, grantId: grantId.nullable(),
  })])),
  grants: z.array(z.object({
    id: grantId, accountId: id, clientId, keyId: id.optional(), scopes, resource: text, revoked: z.boolean(), createdAt: ms.optional(), lastUsedAt: ms.optional(), expiresAt: ms.optional(),
  })),
  accessTokens: z.array(z.tuple([digest, z.object({ grantId, scopes, expiresAt: ms, revoked: z.boolean() })])),
  refreshTokens: z.array(z.tuple([digest, z.object({ grantId, expiresAt: ms, used: z.boolean() })])),
});

export const simulationSnapshot = z.object({
  format: z.literal(SNAPSHOT_FORMAT),
  version: z.literal(SNAPSHOT_VERSION),
  simulatorVersion: text,
  seed: text,
  /** Real time of the save: a running clock goes on from here after a restart. */
  savedAt: ms,
  clock: z.object({ now: ms, frozen: z.boolean() }),
  streams: z.object({ ids: rngState, keyValues: rngState, correlationIds: rngState }),
  accounts: z.array(account),
  oauth,
  /** Every account's MCP tasks in one list, as snapshots saved before tasks were kept per account held them: read, moved into the accounts. */
  mcpTasks: legacyMcpTasks.optional(),
});

export type SimulationSnapshot = z.infer<typeof simulationSnapshot>;
export type AccountSnapshot = z.infer<typeof account>;

const records = fields({ entries: each() });
/** What a restore checks item by item (see `checkInSteps`): every list that grows with the simulation. */
export const SNAPSHOT_PLAN = fields({
  accounts: each(fields({
    keys: records, transactions: records, targets: records, builds: records, library: records, shares: records,
    images: records, audio: records, chats: records, mcpTasks: records,
    deliverables: each(), audioByDeliverableVoice: each(), slugs: each(), idempotency: each(), purchaseIdempotency: each(), pendingRefunds: each(),
  })),
  oauth: fields({ clients: each(), pending: each(), codes: each(), grants: each(), accessTokens: each(), refreshTokens: each() }),
  mcpTasks: each(),
});
