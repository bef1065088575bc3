import type { ContentKind, QuoteMode, TargetSnapshot } from '../content/types.js';
import type { Account } from '../store/account.js';
import { suggestBrief as autofill } from '../suggestions/brief.js';
import { extractKeywords as extract } from '../suggestions/keywords.js';
import { suggestQuotes as quotes } from '../suggestions/quotes.js';
import { suggestTopics as topics } from '../suggestions/topics.js';
import { findTarget } from '../targets/targets-service.js';
import type { ServiceHandler } from './context.js';

/** Suggestions read a target but keep nothing: no record, no charge (see openapi.yaml for the scope). */
function targetSnapshot(account: Account, targetId: string | undefined): TargetSnapshot | undefined {
  if (targetId === undefined) return undefined;
  const t = findTarget(account, targetId);
  return { id: t.id, name: t.name, slug: t.slug, description: t.description, brandKit: t.brandKit };
}

export const suggestTopics: ServiceHandler = ({ sim, account, body, now }) => {
  const input = body as { targetId?: string; phrase?: string; kind?: ContentKind; count?: number };
  const target = targetSnapshot(account, input.targetId);
  const data = topics({
    seed: sim.seed,
    ...(target ? { target } : {}),
    ...(input.phrase !== undefined ? { phrase: input.phrase } : {}),
    ...(input.kind ? { kind: input.kind } : {}),
    count: input.count ?? 5,
    now,
  });
  return { status: 200, json: { data } };
};

export const suggestBrief: ServiceHandler = ({ account, body }) => {
  const input = body as { prompt: string; targetId: string; kind?: ContentKind };
  const target = targetSnapshot(account, input.targetId) as TargetSnapshot;
  return { status: 200, json: autofill(input.prompt, target, input.kind) };
};

export const extractKeywords: ServiceHandler = ({ body }) => {
  const input = body as { text: string; max?: number };
  return { status: 200, json: extract(input.text, input.max ?? 10) };
};

export const suggestQuotes: ServiceHandler = ({ sim, account, body, now }) => {
  const input = body as { speaker: string; title?: string; topic: string; mode: QuoteMode; text?: string; targetId?: string; count?: number };
  const target = targetSnapshot(account, input.targetId);
  const data = quotes({
    seed: sim.seed,
    speaker: input.speaker,
    ...(input.title !== undefined ? { title: input.title } : {}),
    topic: input.topic,
    mode: input.mode,
    ...(input.text !== undefined ? { text: input.text } : {}),
    count: input.count ?? 1,
    ...(target ? { target } : {}),
    now,
  });
  return { status: 200, json: { data } };
};
