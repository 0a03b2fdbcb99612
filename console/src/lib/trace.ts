// Reading the trace events' payloads (src/respond: context_built, llm_call, tool_call,
// delivery). Payloads are stored JSON, so every field is checked before it is shown.
import { isMessageKey, type MessageKey } from '../i18n/messages.js';
import type { EventView } from './types.js';

export const PART_ORDER = [
  'prefix',
  'clock',
  'reminder',
  'memories',
  'previous',
  'summary',
  'personaCard',
  'tone',
  'history',
  'current',
  'instruction',
  'knowledge',
] as const;

/** What a prompt part is, in the page's language (i18n `trace.part.*`); '' for a part it does not know. */
export const partLabel = (t: (key: MessageKey) => string, name: string): string => {
  const key = `trace.part.${name}`;
  return isMessageKey(key) ? t(key) : '';
};

const obj = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** What any other event is about: its payload's task (a background task), category (a warning) or a moderation's direction and verdict. */
export function eventTopic(e: EventView): string {
  const d = obj(e.data);
  const moderation = str(d.direction) && `${str(d.direction)} ${d.flagged === true ? 'flagged' : 'unchecked'}`;
  return str(d.task) ?? str(d.category) ?? (moderation || '');
}

export interface PromptMessage {
  role: string;
  name: string | null;
  text: string;
}

export interface ContextBuild {
  totalTokens: number | null;
  middleTokens: number | null;
  hash: string | null;
  prefixHash: string | null;
  mode: string | null;
  model: string | null;
  configVersion: number | null;
  gatherMs: number | null;
  tools: string[];
  parts: Array<{ name: string; tokens: number; chars: number }>;
  prompt: PromptMessage[];
  recall: {
    queries: string[];
    memoryIds: string[];
    /** Scores by memory id, when the event recorded them. */
    scores: Record<string, number>;
    degraded: string | null;
    deep: boolean;
    totalMs: number | null;
  } | null;
  tooLong: { tokens: number; limit: number } | null;
  /** Knowledge passages retrieved into the prompt, numbered as a reply cites them. */
  knowledge: {
    queries: string[];
    degraded: string | null;
    chunks: Array<{ n: number | null; documentId: string; documentName: string; score: number | null }>;
  } | null;
}

function contentText(c: unknown): string {
  if (typeof c === 'string') return c;
  if (Array.isArray(c))
    return c
      .map((p) => {
        const part = obj(p);
        return str(part.text) ?? (part.type === 'image_url' ? '[image]' : JSON.stringify(p));
      })
      .join('\n');
  return c === null || c === undefined ? '' : JSON.stringify(c);
}

export function promptOf(v: unknown): PromptMessage[] {
  return Array.isArray(v)
    ? v.map((m) => {
        const o = obj(m);
        const calls = Array.isArray(o.tool_calls) ? `\n[tool calls] ${JSON.stringify(o.tool_calls)}` : '';
        return { role: str(o.role) ?? '?', name: str(o.name), text: contentText(o.content) + calls };
      })
    : [];
}

function scoresOf(recall: Record<string, unknown>, ids: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  // Either `scores` parallel to memoryIds, or `memories: [{ id, score }]`.
  if (Array.isArray(recall.scores))
    recall.scores.forEach((s, i) => {
      const n = num(s);
      if (n !== null && ids[i]) out[ids[i]] = n;
    });
  if (Array.isArray(recall.memories))
    for (const m of recall.memories) {
      const o = obj(m);
      const id = str(o.id);
      const n = num(o.score);
      if (id && n !== null) out[id] = n;
    }
  return out;
}

export function contextBuild(e: EventView): ContextBuild {
  const d = obj(e.data);
  const parts = obj(d.parts);
  const recall = d.recall ? obj(d.recall) : null;
  const memoryIds =
    recall && Array.isArray(recall.memoryIds) ? recall.memoryIds.filter((x) => typeof x === 'string') : [];
  const tooLong = d.tooLong ? obj(d.tooLong) : null;
  const knowledge = d.knowledge ? obj(d.knowledge) : null;
  return {
    totalTokens: num(d.totalTokens),
    middleTokens: num(d.middleTokens),
    hash: str(d.hash),
    prefixHash: str(d.prefixHash),
    mode: str(d.mode),
    model: str(d.model),
    configVersion: num(d.configVersion),
    gatherMs: num(d.gatherMs),
    tools: Array.isArray(d.tools) ? d.tools.filter((x): x is string => typeof x === 'string') : [],
    parts: [...new Set([...PART_ORDER, ...Object.keys(parts)])]
      .filter((name) => name in parts)
      .map((name) => ({ name, tokens: num(obj(parts[name]).tokens) ?? 0, chars: num(obj(parts[name]).chars) ?? 0 })),
    prompt: promptOf(d.prompt),
    recall: recall
      ? {
          queries: Array.isArray(recall.queries)
            ? recall.queries.filter((x): x is string => typeof x === 'string')
            : [],
          memoryIds,
          scores: scoresOf(recall, memoryIds),
          degraded: str(recall.degraded),
          deep: recall.deep === true,
          totalMs: num(obj(recall.timings).totalMs),
        }
      : null,
    tooLong: tooLong ? { tokens: num(tooLong.tokens) ?? 0, limit: num(tooLong.limit) ?? 0 } : null,
    knowledge: knowledge
      ? {
          queries: Array.isArray(knowledge.queries)
            ? knowledge.queries.filter((x): x is string => typeof x === 'string')
            : [],
          degraded: str(knowledge.degraded),
          chunks: Array.isArray(knowledge.chunks)
            ? knowledge.chunks.map((c) => {
                const o = obj(c);
                return {
                  n: num(o.n),
                  documentId: str(o.documentId) ?? '',
                  documentName: str(o.documentName) ?? '?',
                  score: num(o.score),
                };
              })
            : [],
        }
      : null,
  };
}

export interface LlmCall {
  api: string | null;
  model: string | null;
  task: string | null;
  round: number | null;
  ttftMs: number | null;
  durationMs: number | null;
  finishReason: string | null;
  usage: { promptTokens: number | null; completionTokens: number | null; totalTokens: number | null } | null;
  output: string | null;
  partial: string | null;
  error: string | null;
  toolCalls: Array<{ name: string; arguments: string }>;
  appended: PromptMessage[];
}

export function llmCall(e: EventView): LlmCall {
  const d = obj(e.data);
  const usage = d.usage ? obj(d.usage) : null;
  return {
    api: str(d.api),
    model: str(d.model),
    task: str(d.task),
    round: num(d.round),
    ttftMs: num(d.ttftMs),
    durationMs: num(d.durationMs),
    finishReason: str(d.finishReason),
    usage: usage
      ? {
          promptTokens: num(usage.promptTokens),
          completionTokens: num(usage.completionTokens),
          totalTokens: num(usage.totalTokens),
        }
      : null,
    output: str(d.output),
    partial: str(d.partial),
    error: str(d.error),
    toolCalls: Array.isArray(d.toolCalls)
      ? d.toolCalls.map((c) => ({ name: str(obj(c).name) ?? '?', arguments: str(obj(c).arguments) ?? '' }))
      : [],
    appended: promptOf(obj(d.promptRef).appended),
  };
}

export interface ToolCall {
  name: string;
  round: number | null;
  ok: boolean;
  arguments: unknown;
  result: unknown;
  error: unknown;
  durationMs: number | null;
}

/** Arguments are stored as the model sent them (a JSON string); shown parsed when they parse. */
function parsed(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return v;
  }
}

export function toolCall(e: EventView): ToolCall {
  const d = obj(e.data);
  return {
    name: str(d.name) ?? '?',
    round: num(d.round),
    ok: d.ok === true,
    arguments: parsed(d.arguments),
    result: d.result,
    error: d.error,
    durationMs: num(d.durationMs),
  };
}

export interface Delivery {
  platform: string | null;
  ok: boolean;
  skipped: boolean;
  platformMessageIds: string[];
  error: string | null;
  intermediateError: string | null;
}

export function delivery(e: EventView): Delivery {
  const d = obj(e.data);
  return {
    platform: str(d.platform),
    ok: d.ok === true,
    skipped: d.skipped === true,
    platformMessageIds: Array.isArray(d.platformMessageIds) ? d.platformMessageIds.map(String) : [],
    error: str(d.error),
    intermediateError: str(d.intermediateError),
  };
}

/** The prompt as lines for a diff: each message headed by its role (and name). */
export function promptLines(prompt: readonly PromptMessage[]): string[] {
  // No message numbers: a message added early would renumber every later one into the diff.
  return prompt.flatMap((m) => [`── ${m.role}${m.name ? ` (${m.name})` : ''}`, ...m.text.split('\n')]);
}
