/**
 * Press-release quotes on demand, through the same code a press-release build uses
 * (src/content/kinds/quotes.ts): verbatim keeps the text, polish copy-edits it, generate
 * writes new quotes about the topic for the brand.
 */
import { validationError } from '../errors/api-error.js';
import { GenContext } from '../content/context.js';
import { resolveQuotes, type ResolvedQuote } from '../content/kinds/quotes.js';
import { defaultBrandKit } from '../targets/brand-kit.js';
import type { QuoteMode, TargetSnapshot } from '../content/types.js';
import { withoutMarkers } from './kinds.js';

export interface QuoteRequest {
  seed: string;
  speaker: string;
  title?: string;
  topic: string;
  mode: QuoteMode;
  text?: string;
  count: number;
  /** The brand the quotes speak for; without one, "our company". */
  target?: TargetSnapshot;
  now: number;
}

const NO_BRAND: TargetSnapshot = { id: 'none', name: 'our company', slug: 'our-company', description: '', brandKit: defaultBrandKit() };

export function suggestQuotes(request: QuoteRequest): ResolvedQuote[] {
  if (request.mode !== 'generate' && !request.text?.trim()) {
    throw validationError([{ path: 'body.text', message: `is required for mode ${request.mode}: the quote to ${request.mode === 'verbatim' ? 'keep' : 'polish'}` }]);
  }
  const quote = { speaker: request.speaker, ...(request.title ? { title: request.title } : {}), mode: request.mode };
  const quotes = request.mode === 'generate'
    ? Array.from({ length: request.count }, () => quote)
    : [{ ...quote, text: request.text as string }];
  const target = request.target ?? NO_BRAND;
  // Everything the quotes depend on seeds them: same request, same quotes.
  const requestKey = ['quotes', target.id, request.speaker, request.title ?? '', request.topic, request.mode, request.text ?? '', request.count].join('\u0000');
  const ctx = new GenContext({
    seed: request.seed,
    buildId: requestKey,
    deliverableId: requestKey,
    pageIndex: 0,
    pageCount: 1,
    kind: 'press_release',
    objective: quoteTopic(request.topic) || target.name,
    researchPolicy: 'none',
    researchMode: 'standard',
    qualityMode: 'standard',
    generateImages: false,
    target,
    completedAt: new Date(request.now).toISOString(),
    pressRelease: { quotes },
  });
  return resolveQuotes(ctx);
}

/** Leading determiners add nothing to a quote's subject and eat into its four focus words. */
function quoteTopic(topic: string): string {
  return withoutMarkers(topic).replace(/^(?:(?:our|the|a|an|its|their|new|latest|upcoming)\s+)+/i, '');
}
