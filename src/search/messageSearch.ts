// The plan of a message search (pure): which index lists to read and how a candidate is
// confirmed. Every search — the model's tool, MCP's search_messages, GraphQL and the console —
// goes through it and src/store/indexSearch.ts, so they agree. The index only narrows (every
// query bigram, or the dialogue / the window's days for a one-character query); the match is
// decided on the message itself: the literal text, case-insensitive, in its content, caption or
// transcription, the filters, and never a deleted message.
import { z } from 'zod';
import type { Message, Role } from '../domain/model.js';
import { GatewayError } from '../errors.js';
import { checkWindow, DAY_MS } from '../query/timeWindow.js';
import { bigrams, escapeRegex, gapGrams, searchableTexts } from './searchKeys.js';
import { dayTerms, dialogueTerm, gapTerm, pickSpread } from './indexTerms.js';

export const SEARCH_TEXT_MAX = 200;
export const UNINDEXED_WINDOW_DAYS = 31;
/**
 * Bigram lists read per query at most (a 200-character query has 199 bigrams). Enough that a
 * phrase of common letters still holds a rare pair (" k" in "lighthouse keeper"): each list
 * read costs less than the false candidates a missing one lets through.
 */
export const QUERY_TERMS_MAX = 16;
/** Word-gap spans read per query at most: each is rare, so a few already name about the phrase's own messages. */
export const QUERY_GAPS_MAX = 4;

export type SearchOrder = 'newest' | 'oldest';

export interface MessageSearchInput {
  text: string;
  dialogueId?: string | null;
  role?: Role | null;
  since?: Date | null;
  until?: Date | null;
  /** Also the messages moved out of the live record (BR-002). */
  includeArchived?: boolean;
  /** Only messages shown in the conversation (the model's tool, MCP: skips are invisible). */
  visibleOnly?: boolean;
  order?: SearchOrder;
}

const chars = (s: string) => Array.from(s).length;
const textSchema = z
  .string()
  .transform((s) => s.trim())
  .refine((s) => chars(s) >= 1, { message: 'search text must not be empty' })
  .refine((s) => chars(s) <= SEARCH_TEXT_MAX, { message: `search text must be at most ${SEARCH_TEXT_MAX} characters` });

export interface MessageSearchPlan {
  text: string;
  /** Lists every candidate is in (intersected). */
  allOf: string[];
  /** Lists of which a candidate is in one (a one-character query's days); empty: not used. */
  anyOf: string[];
  since?: number;
  until?: number;
  dialogueId?: string;
  role?: Role;
  includeArchived: boolean;
  visibleOnly: boolean;
  order: SearchOrder;
  pattern: RegExp;
}

export function planMessageSearch(input: MessageSearchInput, now: Date): MessageSearchPlan {
  const parsed = textSchema.safeParse(input.text);
  if (!parsed.success) throw new GatewayError('BAD_REQUEST', parsed.error.issues[0]?.message ?? 'invalid search text');
  const text = parsed.data;
  const { since, until } = checkWindow(input);
  const keys = pickSpread(bigrams(text), QUERY_TERMS_MAX);
  const gaps = pickSpread(gapGrams(text), QUERY_GAPS_MAX).map(gapTerm);
  const allOf = [...keys, ...gaps, ...(input.dialogueId ? [dialogueTerm(input.dialogueId)] : [])];
  let anyOf: string[] = [];
  if (keys.length === 0 && !input.dialogueId) {
    const end = until ?? now;
    if (!since || end.getTime() - since.getTime() > UNINDEXED_WINDOW_DAYS * DAY_MS) {
      throw new GatewayError(
        'BAD_REQUEST',
        `a one-character search cannot use the search index: give a dialogueId, or since/until at most ${UNINDEXED_WINDOW_DAYS} days apart`,
      );
    }
    anyOf = dayTerms(since.getTime(), end.getTime());
  }
  return {
    text,
    allOf,
    anyOf,
    ...(since ? { since: since.getTime() } : {}),
    ...(until ? { until: until.getTime() } : {}),
    ...(input.dialogueId ? { dialogueId: input.dialogueId } : {}),
    ...(input.role ? { role: input.role } : {}),
    includeArchived: input.includeArchived ?? false,
    visibleOnly: input.visibleOnly ?? false,
    order: input.order ?? 'newest',
    // The same literal, case-insensitive match the stored regex made before the index.
    pattern: new RegExp(escapeRegex(text), 'iu'),
  };
}

/** Whether a stored message is a result of the plan (the candidates' check). */
export function matchesPlan(plan: MessageSearchPlan, m: Message): boolean {
  if (m.deleted) return false;
  if (plan.visibleOnly && !m.visible) return false;
  if (plan.dialogueId && m.dialogueId !== plan.dialogueId) return false;
  if (plan.role && m.senderRole !== plan.role) return false;
  const at = m.createdAt.getTime();
  if ((plan.since !== undefined && at < plan.since) || (plan.until !== undefined && at >= plan.until)) return false;
  return searchableTexts(m).some((t) => plan.pattern.test(t));
}
