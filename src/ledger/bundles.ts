/**
 * The token bundles on sale. The spec says only that the same bundles pay for web app,
 * API and MCP calls; names, sizes and prices are inferred (and documented in openapi.yaml).
 */
export interface TokenBundle {
  id: string;
  name: string;
  tokens: number;
  /** Price in the smallest unit of `currency` (cents). */
  priceCents: number;
  currency: 'usd';
}

export const TOKEN_BUNDLES: readonly TokenBundle[] = [
  { id: 'starter', name: 'Starter', tokens: 50, priceCents: 4_900, currency: 'usd' },
  { id: 'growth', name: 'Growth', tokens: 250, priceCents: 19_900, currency: 'usd' },
  { id: 'scale', name: 'Scale', tokens: 1_000, priceCents: 59_900, currency: 'usd' },
];

const BY_ID = new Map(TOKEN_BUNDLES.map((b) => [b.id, b]));

export function findBundle(id: string): TokenBundle | undefined {
  return BY_ID.get(id);
}
