// Per-agent model settings: an agent may answer with its own model name, temperature and longest
// answer; each one it leaves unset is the deployment's. Only replies use them — background tasks
// (memory, summaries, persona, reflection) keep the deployment's model. The ranges live here once,
// for the API's validation and the console's hints.
import { z } from 'zod';
import { CONFIG_FIELDS } from './config.js';
import type { Agent, AgentModelSettings } from './model.js';

export const MODEL_NAME_MAX_CHARS = 100;
export const TEMPERATURE_RANGE = { min: 0, max: 2 } as const;
/** The deployment's own limit (`limits.max_reply_tokens`) takes values in this range, so an agent's does too. */
export const MAX_OUTPUT_TOKENS_RANGE = {
  min: CONFIG_FIELDS.limits.max_reply_tokens.min,
  max: CONFIG_FIELDS.limits.max_reply_tokens.max,
} as const;

// Names as providers spell them: `gpt-4o-mini`, `openai/gpt-4o`, `llama3.1:8b`, `claude-3@20240620`.
const MODEL_NAME = /^[A-Za-z0-9][A-Za-z0-9._:/@+-]*$/;

const t = TEMPERATURE_RANGE;
const m = MAX_OUTPUT_TOKENS_RANGE;

/**
 * An operator's change of an agent's settings: a value sets that setting, null clears it (the
 * deployment's applies again), a setting left out stays as it is.
 */
export const modelSettingsPatchSchema = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, `must be a model name of 1 to ${MODEL_NAME_MAX_CHARS} characters`)
      .max(MODEL_NAME_MAX_CHARS, `must be a model name of 1 to ${MODEL_NAME_MAX_CHARS} characters`)
      .regex(MODEL_NAME, 'must be a model name: letters, digits and . _ : / @ + -, starting with a letter or digit')
      .nullish(),
    temperature: z
      .number(`must be a number between ${t.min} and ${t.max}`)
      .min(t.min, `must be a number between ${t.min} and ${t.max}`)
      .max(t.max, `must be a number between ${t.min} and ${t.max}`)
      .nullish(),
    maxOutputTokens: z
      .number(`must be an integer between ${m.min} and ${m.max}`)
      .int(`must be an integer between ${m.min} and ${m.max}`)
      .min(m.min, `must be an integer between ${m.min} and ${m.max}`)
      .max(m.max, `must be an integer between ${m.min} and ${m.max}`)
      .nullish(),
  })
  .strict();

export type ModelSettingsPatch = z.output<typeof modelSettingsPatchSchema>;

/** A value sets, null clears, undefined keeps. */
const merged = <T>(was: T | undefined, change: T | null | undefined): T | undefined =>
  change === null ? undefined : (change ?? was);

/** The settings after a patch; undefined when none is left (the agent answers as the deployment does). */
export function applyModelSettingsPatch(
  current: AgentModelSettings | undefined,
  patch: ModelSettingsPatch,
): AgentModelSettings | undefined {
  const name = merged(current?.name, patch.name);
  const temperature = merged(current?.temperature, patch.temperature);
  const maxOutputTokens = merged(current?.maxOutputTokens, patch.maxOutputTokens);
  const next: AgentModelSettings = {
    ...(name !== undefined ? { name } : {}),
    ...(temperature !== undefined ? { temperature } : {}),
    ...(maxOutputTokens !== undefined ? { maxOutputTokens } : {}),
  };
  return Object.keys(next).length > 0 ? next : undefined;
}

/** The deployment's settings for replies: LLM_MODEL, no temperature of its own, `limits.max_reply_tokens`. */
export interface ModelDefaults {
  name: string;
  temperature?: number;
  maxOutputTokens?: number;
}

export type EffectiveModelSettings = ModelDefaults;

/** What one agent's reply is generated with: each of its settings, else the deployment's. */
export function effectiveModelSettings(
  defaults: ModelDefaults,
  agent: Pick<Agent, 'modelSettings'> | undefined,
): EffectiveModelSettings {
  const own = agent?.modelSettings;
  const temperature = own?.temperature ?? defaults.temperature;
  const maxOutputTokens = own?.maxOutputTokens ?? defaults.maxOutputTokens;
  return {
    name: own?.name ?? defaults.name,
    ...(temperature !== undefined ? { temperature } : {}),
    ...(maxOutputTokens !== undefined ? { maxOutputTokens } : {}),
  };
}
