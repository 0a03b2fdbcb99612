// A call's cost from the config's model prices (per million prompt and completion tokens); none
// without a price for its model or without recorded usage.
import { graphql, type FragmentOf } from './graphql.js';
import { useQuery } from './hooks.js';

export const ModelPriceFields = graphql(`
  fragment ModelPriceFields on ModelPrice {
    model
    promptPerMillion
    completionPerMillion
  }
`);
export type ModelPrice = FragmentOf<typeof ModelPriceFields>;

const PRICING = graphql(
  `
    query Pricing {
      config {
        pricing {
          ...ModelPriceFields
        }
      }
    }
  `,
  [ModelPriceFields],
);

export function usePricing(): ModelPrice[] {
  return useQuery(PRICING).data?.config.pricing ?? [];
}

export function callCost(
  pricing: readonly ModelPrice[],
  model: string | null,
  usage: { promptTokens: number | null; completionTokens: number | null } | null,
): number | null {
  const p = model ? pricing.find((x) => x.model === model) : undefined;
  if (!p || !usage) return null;
  return (
    ((usage.promptTokens ?? 0) * p.promptPerMillion + (usage.completionTokens ?? 0) * p.completionPerMillion) / 1e6
  );
}

/** Three significant digits: a call costs fractions of a cent, a turn rarely more than cents. */
export function formatCost(n: number, locale: string): string {
  return new Intl.NumberFormat(locale, { maximumSignificantDigits: 3 }).format(n);
}
