// Optional model prices in the config document: per model, what a million prompt and completion
// tokens cost (in whatever currency the operator bills in). The console shows each call's and
// each turn's cost from them; nothing in the gateway depends on them.
import { z } from 'zod';

export const PRICE_RANGE = { min: 0, max: 1_000 } as const;
export const MAX_PRICED_MODELS = 50;

const price = z.number().finite().min(PRICE_RANGE.min).max(PRICE_RANGE.max);

export const modelPriceSchema = z
  .object({
    model: z.string().trim().min(1).max(100),
    promptPerMillion: price,
    completionPerMillion: price,
  })
  .strict();

export type ModelPrice = z.infer<typeof modelPriceSchema>;

const pricingSchema = z.array(modelPriceSchema).max(MAX_PRICED_MODELS);

/** The validated list, or the problems (named like the other config errors: path and range). */
export function parsePricing(v: unknown): { ok: true; value: ModelPrice[] } | { ok: false; problems: string[] } {
  const r = pricingSchema.safeParse(v);
  if (!r.success) {
    const problems = r.error.issues.map((i) => {
      const path = ['pricing', ...i.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))].join('');
      const field = i.path.at(-1);
      if (field === 'promptPerMillion' || field === 'completionPerMillion')
        return `${path} must be a number between ${PRICE_RANGE.min} and ${PRICE_RANGE.max}`;
      if (field === 'model') return `${path} must be a model name of 1 to 100 characters`;
      if (i.path.length === 0 && i.code === 'too_big') return `pricing must list at most ${MAX_PRICED_MODELS} models`;
      return `${path.replace(/\.$/, '')}: ${i.message}`;
    });
    return { ok: false, problems };
  }
  const seen = new Set<string>();
  const dup = r.data.find((p) => (seen.has(p.model) ? true : (seen.add(p.model), false)));
  if (dup) return { ok: false, problems: [`pricing lists ${dup.model} twice`] };
  return { ok: true, value: r.data };
}
