// Model prices in the config (src/domain/configPricing.ts): read on Config, replaced as a whole
// list by updateConfig's `pricing` (validated with the rest of the patch).
import { builder } from '../builder.js';
import { PRICE_RANGE, type ModelPrice } from '../../src/domain/configPricing.js';

const range = `${PRICE_RANGE.min}–${PRICE_RANGE.max}`;

export const ModelPriceType = builder.objectRef<ModelPrice>('ModelPrice').implement({
  description: "What a million tokens of one model cost, in the operator's billing currency.",
  fields: (t) => ({
    model: t.exposeString('model', { description: 'The model name as the LLM calls record it.' }),
    promptPerMillion: t.exposeFloat('promptPerMillion', { description: `Per million prompt tokens (${range}).` }),
    completionPerMillion: t.exposeFloat('completionPerMillion', {
      description: `Per million completion tokens (${range}).`,
    }),
  }),
});

export const ModelPriceInput = builder.inputType('ModelPriceInput', {
  fields: (t) => ({
    model: t.string({ required: true }),
    promptPerMillion: t.float({ required: true, description: range }),
    completionPerMillion: t.float({ required: true, description: range }),
  }),
});
