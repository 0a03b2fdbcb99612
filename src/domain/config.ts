// The config document (seed 001's thresholds, limits and preferences): one document in the
// store, read on every turn so a change applies on the next turn in every process. Each field
// declares its range and default once here; validation, restore-defaults and the API's
// description of the ranges all come from this table.
import { GatewayError } from '../errors.js';
import type { SummaryOrder } from './model.js';
import { ANSWER_TIMEOUT_RANGE } from './room.js';
import { parsePricing, type ModelPrice } from './configPricing.js';

type IntField = { type: 'int'; min: number; max: number; default: number; doc: string };
/** A decimal amount (money): finite, within its range. */
type NumberField = { type: 'number'; min: number; max: number; default: number; doc: string };
type BoolField = { type: 'bool'; default: boolean; doc: string };
type EnumField<T extends string> = { type: 'enum'; values: readonly T[]; default: T; doc: string };
/** Short texts (moderation keywords): each non-empty once trimmed and at most maxLength characters. */
type ListField = { type: 'list'; maxItems: number; maxLength: number; default: readonly string[]; doc: string };
type Field = IntField | NumberField | BoolField | EnumField<string> | ListField;

export const CONFIG_FIELDS = {
  thresholds: {
    rag_fallback_threshold: {
      type: 'int',
      min: 1,
      max: 10,
      default: 3,
      doc: 'director: misses in a row before the fallback reminder',
    },
    summary_last_n_turns: {
      type: 'int',
      min: 1,
      max: 20,
      default: 5,
      doc: 'summarise action: raw turns carried into the new session',
    },
    summary_threshold_turns: {
      type: 'int',
      min: 2,
      max: 100,
      default: 15,
      doc: 'rolling summary: raw turns allowed before older ones are folded',
    },
    recent_turns: { type: 'int', min: 1, max: 50, default: 10, doc: 'rolling summary: raw turns kept after folding' },
    carry_over_turns: {
      type: 'int',
      min: 0,
      max: 20,
      default: 6,
      doc: "a new session after the gap shows the previous session's last turns (0: off)",
    },
    recall_top_k: { type: 'int', min: 1, max: 20, default: 5, doc: 'active recall: memories put into the prompt' },
    persona_evolve_every_turns: {
      type: 'int',
      min: 0,
      max: 1000,
      default: 50,
      doc: 'evolve the persona after this many replies (0: only on demand)',
    },
    room_answer_timeout_seconds: {
      type: 'int',
      ...ANSWER_TIMEOUT_RANGE,
      default: 180,
      doc: "rooms: an agent asked to speak that has not answered by then is skipped invisibly, its reply stopped if under way (a room's own answerTimeoutSeconds wins); LLM_TIMEOUT_MS still bounds every reply",
    },
    room_auto_rounds: {
      type: 'int',
      min: 1,
      max: 20,
      default: 3,
      doc: 'rooms where people only watch: rounds the agents hold among themselves per human message',
    },
  },
  limits: {
    max_total_tokens: {
      type: 'int',
      min: 10_000,
      max: 200_000,
      default: 100_000,
      doc: 'prompt size limit; over it the turn fails with PROMPT_TOO_LONG',
    },
    middle_section_warning_tokens: {
      type: 'int',
      min: 1_000,
      max: 50_000,
      default: 20_000,
      doc: 'middle section (reminder, memories, summary, history) warning; never truncates',
    },
    room_auto_tokens: {
      type: 'int',
      min: 1_000,
      max: 2_000_000,
      default: 50_000,
      doc: 'rooms where people only watch: tokens (prompts and answers) the agents may spend per human message',
    },
    conversation_max_tokens: {
      type: 'int',
      min: 10_000,
      max: 200_000,
      default: 100_000,
      doc: 'whole-session mode: history tokens before a summary is suggested',
    },
    max_reply_tokens: {
      type: 'int',
      min: 64,
      max: 16_000,
      default: 2_000,
      doc: 'longest reply the model may write, in tokens; a reply cut at it ends cleanly',
    },
    memory_max_chars: {
      type: 'int',
      min: 50,
      max: 4_000,
      default: 1_000,
      doc: 'longest memory entry; longer extractions are cut at a sentence',
    },
    reflection_max_tokens: {
      type: 'int',
      min: 1_000,
      max: 1_000_000,
      default: 40_000,
      doc: 'self-reflection: tokens (prompts and answers) one run may spend; at the limit the run stops and says so',
    },
    person_daily_tokens: {
      type: 'int',
      min: 0,
      max: 1_000_000_000,
      default: 0,
      doc: "tokens one person may cause per day (replies, tool rounds, their background tasks), counted in DISPLAY_TIMEZONE; past it no model call until midnight (0: no limit; a person's own quota wins)",
    },
    chat_daily_tokens: {
      type: 'int',
      min: 0,
      max: 1_000_000_000,
      default: 0,
      doc: 'tokens one chat may spend per day, everyone in it together (0: no limit)',
    },
    deployment_daily_cost: {
      type: 'number',
      min: 0,
      max: 1_000_000,
      default: 0,
      doc: 'what the whole deployment may spend per day, in the currency of pricing (needs pricing; 0: no limit)',
    },
    reflection_max_memories: {
      type: 'int',
      min: 1,
      max: 200,
      default: 20,
      doc: 'self-reflection: memories one run may write; a step that would pass it writes none and the run stops',
    },
  },
  access: {
    mode: {
      type: 'enum',
      values: ['open', 'allowlist'],
      default: 'open',
      doc: 'who may talk: everyone (open), or only people and groups let in by an invite, an operator or an admitted group (allowlist)',
    },
    refusal: {
      type: 'enum',
      values: ['notice', 'silent'],
      default: 'notice',
      doc: 'a person not let in is told once how to get in (notice), or hears nothing (silent); their messages are recorded as refused either way',
    },
  },
  preferences: {
    summary_order: {
      type: 'enum',
      values: ['summary_first', 'last_n_first'],
      default: 'summary_first',
      doc: 'order of summary and last turns in a summarised session',
    },
    conversation_load_all: {
      type: 'bool',
      default: false,
      doc: "whole-session mode: the session's whole history goes into the prompt (a summary is suggested past conversation_max_tokens) instead of the rolling summary",
    },
    active_recall: { type: 'bool', default: true, doc: 'search memories for every message' },
  },
  moderation: {
    keywords: {
      type: 'list',
      maxItems: 500,
      maxLength: 100,
      default: [],
      doc: 'words and phrases that flag a message (case-insensitive; Latin words match whole words, Chinese anywhere): a flagged message is not sent to the model and its sender is told',
    },
    check_replies: {
      type: 'bool',
      default: true,
      doc: "check the agents' replies too (keywords, and MODERATION_BASE_URL when set): a reply is then shown only once complete, and a flagged one is withheld with a notice",
    },
  },
} as const satisfies Record<string, Record<string, Field>>;

type Fields = typeof CONFIG_FIELDS;
type ValueOf<F> = F extends { type: 'int' | 'number' }
  ? number
  : F extends { type: 'bool' }
    ? boolean
    : F extends { type: 'list' }
      ? string[]
      : F extends { values: readonly (infer V)[] }
        ? V
        : never;
type SectionValues = {
  -readonly [S in keyof Fields]: { -readonly [K in keyof Fields[S]]: ValueOf<Fields[S][K]> };
};
export type GatewayConfig = SectionValues & {
  /** Model prices, when the operator set any (a list, so outside the table of fields). */
  pricing?: ModelPrice[];
};
export type ConfigSection = keyof Fields;
/** A partial update: any subset of fields of any section; `pricing` replaces the whole list. */
export type ConfigPatch = { [S in keyof Fields]?: { [K in keyof Fields[S]]?: unknown } } & { pricing?: unknown };

export interface ConfigFieldInfo {
  path: string;
  type: Field['type'];
  min?: number;
  max?: number;
  values?: readonly string[];
  /** A list's most entries, and most characters per entry. */
  maxItems?: number;
  maxLength?: number;
  default: number | boolean | string | readonly string[];
  doc: string;
}

const sections = Object.keys(CONFIG_FIELDS) as ConfigSection[];
const fieldsOf = (s: ConfigSection): Array<[string, Field]> =>
  Object.entries(CONFIG_FIELDS[s]) as Array<[string, Field]>;

export function defaultConfig(): GatewayConfig {
  const out: Record<string, Record<string, unknown>> = {};
  // Copied, so a caller changing its config's list never changes the table's default.
  for (const s of sections)
    out[s] = Object.fromEntries(fieldsOf(s).map(([k, f]) => [k, f.type === 'list' ? [...f.default] : f.default]));
  return out as SectionValues;
}

/** Every field with its range, for operators (GraphQL) and error messages. */
export function configFieldInfo(): ConfigFieldInfo[] {
  return sections.flatMap((s) =>
    fieldsOf(s).map(([k, f]) => ({
      path: `${s}.${k}`,
      type: f.type,
      ...(f.type === 'int' || f.type === 'number' ? { min: f.min, max: f.max } : {}),
      ...(f.type === 'enum' ? { values: f.values } : {}),
      ...(f.type === 'list' ? { maxItems: f.maxItems, maxLength: f.maxLength } : {}),
      default: f.default,
      doc: f.doc,
    })),
  );
}

function describeRange(f: Field): string {
  if (f.type === 'int') return `an integer between ${f.min} and ${f.max}`;
  if (f.type === 'number') return `a number between ${f.min} and ${f.max}`;
  if (f.type === 'bool') return 'true or false';
  if (f.type === 'list') return `a list of at most ${f.maxItems} texts, each 1 to ${f.maxLength} characters`;
  return `one of ${f.values.join(', ')}`;
}

/** What is wrong with a list value (a long list is not echoed whole), or undefined. */
function listProblem(f: ListField, v: unknown): string | undefined {
  if (!Array.isArray(v)) return `got ${JSON.stringify(v) ?? 'nothing'}`;
  if (v.length > f.maxItems) return `got ${v.length} entries`;
  const bad = v.findIndex((e) => typeof e !== 'string' || e.trim() === '' || e.trim().length > f.maxLength);
  if (bad < 0) return undefined;
  const e: unknown = v[bad];
  const what = typeof e !== 'string' ? JSON.stringify(e) : e.trim() === '' ? 'empty' : `${e.trim().length} characters`;
  return `entry ${bad + 1} is ${what}`;
}

/** A valid value as stored: list entries trimmed (a keyword's edge spaces are typing, not meaning). */
const storedValue = (f: Field, v: unknown): unknown => (f.type === 'list' ? (v as string[]).map((e) => e.trim()) : v);

function checkField(path: string, f: Field, v: unknown): string | undefined {
  if (f.type === 'list') {
    const problem = listProblem(f, v);
    return problem ? `${path} must be ${describeRange(f)} (${problem})` : undefined;
  }
  const ok =
    f.type === 'int'
      ? typeof v === 'number' && Number.isInteger(v) && v >= f.min && v <= f.max
      : f.type === 'number'
        ? typeof v === 'number' && Number.isFinite(v) && v >= f.min && v <= f.max
        : f.type === 'bool'
          ? typeof v === 'boolean'
          : typeof v === 'string' && f.values.includes(v);
  return ok ? undefined : `${path} must be ${describeRange(f)} (got ${JSON.stringify(v) ?? 'nothing'})`;
}

/**
 * Applies a patch to a config, or throws CONFIG_INVALID naming every bad field and its range.
 * Unknown sections and fields are errors too: a typo must not be silently ignored.
 */
export function applyConfigPatch(base: GatewayConfig, patch: unknown): GatewayConfig {
  const problems: string[] = [];
  const { pricing: basePricing, ...sectionValues } = structuredClone(base);
  const next = sectionValues as Record<string, Record<string, unknown>>;
  let pricing = basePricing;
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch))
    throw new GatewayError('CONFIG_INVALID', 'the config update must be an object of sections');
  for (const [s, values] of Object.entries(patch)) {
    if (s === 'pricing') {
      const r = parsePricing(values);
      if (r.ok) pricing = r.value;
      else problems.push(...r.problems);
      continue;
    }
    if (!(sections as string[]).includes(s)) {
      problems.push(`unknown section ${s} (sections: ${[...sections, 'pricing'].join(', ')})`);
      continue;
    }
    if (typeof values !== 'object' || values === null || Array.isArray(values)) {
      problems.push(`${s} must be an object`);
      continue;
    }
    const known = new Map(fieldsOf(s as ConfigSection));
    for (const [k, v] of Object.entries(values as Record<string, unknown>)) {
      const f = known.get(k);
      if (!f) {
        problems.push(`unknown field ${s}.${k}`);
        continue;
      }
      if (v === undefined) continue;
      const problem = checkField(`${s}.${k}`, f, v);
      if (problem) problems.push(problem);
      else next[s]![k] = storedValue(f, v);
    }
  }
  const merged: GatewayConfig = { ...(next as SectionValues), ...(pricing?.length ? { pricing } : {}) };
  if (problems.length === 0) problems.push(...crossFieldProblems(merged), ...costCapProblems(merged));
  if (problems.length > 0) throw new GatewayError('CONFIG_INVALID', problems.join('; '));
  return merged;
}

function crossFieldProblems(c: GatewayConfig): string[] {
  const out: string[] = [];
  if (c.thresholds.recent_turns >= c.thresholds.summary_threshold_turns) {
    out.push(
      `thresholds.recent_turns (${c.thresholds.recent_turns}) must be below thresholds.summary_threshold_turns (${c.thresholds.summary_threshold_turns})`,
    );
  }
  if (c.limits.middle_section_warning_tokens >= c.limits.max_total_tokens) {
    out.push(
      `limits.middle_section_warning_tokens (${c.limits.middle_section_warning_tokens}) must be below limits.max_total_tokens (${c.limits.max_total_tokens})`,
    );
  }
  return out;
}

/** A daily cost cap is counted in the prices' currency: without any price nothing would ever count. */
function costCapProblems(c: GatewayConfig): string[] {
  if (c.limits.deployment_daily_cost > 0 && !c.pricing?.length)
    return [
      'limits.deployment_daily_cost needs pricing: set the models’ prices first (nothing is counted without them)',
    ];
  return [];
}

/**
 * Reads a stored document leniently: fields that are missing or no longer valid (an older
 * version, a hand edit) fall back to their defaults, and are reported so they can be logged.
 */
export function readStoredConfig(stored: unknown): { config: GatewayConfig; ignored: string[] } {
  const config = defaultConfig() as SectionValues as Record<string, Record<string, unknown>>;
  const ignored: string[] = [];
  const doc = (typeof stored === 'object' && stored !== null ? stored : {}) as Record<string, unknown>;
  for (const s of sections) {
    const values = (typeof doc[s] === 'object' && doc[s] !== null ? doc[s] : {}) as Record<string, unknown>;
    for (const [k, f] of fieldsOf(s)) {
      if (!(k in values)) continue;
      if (checkField(`${s}.${k}`, f, values[k])) ignored.push(`${s}.${k}`);
      else config[s]![k] = storedValue(f, values[k]);
    }
  }
  const typed: GatewayConfig = config as SectionValues;
  if ('pricing' in doc && doc.pricing !== undefined) {
    const r = parsePricing(doc.pricing);
    // An empty list is how a write stores "no prices": valid, not ignored.
    if (!r.ok) ignored.push('pricing');
    else if (r.value.length) typed.pricing = r.value;
  }
  if (crossFieldProblems(typed).length > 0) {
    ignored.push('thresholds.recent_turns/summary_threshold_turns or limits (inconsistent pair)');
    const d = defaultConfig();
    typed.thresholds.recent_turns = Math.min(
      typed.thresholds.recent_turns,
      typed.thresholds.summary_threshold_turns - 1,
    );
    if (typed.limits.middle_section_warning_tokens >= typed.limits.max_total_tokens)
      typed.limits.middle_section_warning_tokens = Math.min(
        d.limits.middle_section_warning_tokens,
        typed.limits.max_total_tokens - 1,
      );
  }
  return { config: typed, ignored };
}

export type { SummaryOrder };
