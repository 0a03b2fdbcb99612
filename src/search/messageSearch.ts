// The query of a message search (pure). Two stages, so it stays fast on large collections
// without $text (FerretDB has none): every bigram of the query must be among the message's
// `searchKeys` (multikey index {searchKeys, createdAt}), then an escaped case-insensitive regex
// checks the literal text on what is left. A one-character query has no bigram: it runs on the
// regex alone, so it must be bounded by a dialogue or a window of at most 31 days.
import { z } from 'zod';
import type { Filter } from 'mongodb';
import type { Message, Role } from '../domain/model.js';
import { GatewayError } from '../errors.js';
import { checkWindow, DAY_MS, windowCondition } from '../query/timeWindow.js';
import { bigrams, CAPPED_KEY, escapeRegex } from './searchKeys.js';

export const SEARCH_TEXT_MAX = 200;
export const UNINDEXED_WINDOW_DAYS = 31;

export interface MessageSearchInput {
  text: string;
  dialogueId?: string | null;
  role?: Role | null;
  since?: Date | null;
  until?: Date | null;
}

const chars = (s: string) => Array.from(s).length;
const textSchema = z
  .string()
  .transform((s) => s.trim())
  .refine((s) => chars(s) >= 1, { message: 'search text must not be empty' })
  .refine((s) => chars(s) <= SEARCH_TEXT_MAX, { message: `search text must be at most ${SEARCH_TEXT_MAX} characters` });

export interface MessageSearchPlan {
  filter: Filter<Message>;
  /** The bigrams required of every match; empty for a one-character query (regex alone). */
  keys: string[];
}

export function planMessageSearch(input: MessageSearchInput, now: Date): MessageSearchPlan {
  const parsed = textSchema.safeParse(input.text);
  if (!parsed.success) throw new GatewayError('BAD_REQUEST', parsed.error.issues[0]?.message ?? 'invalid search text');
  const text = parsed.data;
  checkWindow(input);
  const keys = bigrams(text);
  if (keys.length === 0 && !input.dialogueId) {
    const until = input.until ?? now;
    if (!input.since || until.getTime() - input.since.getTime() > UNINDEXED_WINDOW_DAYS * DAY_MS) {
      throw new GatewayError(
        'BAD_REQUEST',
        `a one-character search cannot use the search index: give a dialogueId, or since/until at most ${UNINDEXED_WINDOW_DAYS} days apart`,
      );
    }
  }
  const regex = { $regex: escapeRegex(text), $options: 'i' };
  const rest: Filter<Message>[] = [
    { $or: [{ content: regex }, { 'contentMeta.caption': regex }, { 'contentMeta.transcription': regex }] },
  ];
  if (input.dialogueId) rest.unshift({ dialogueId: input.dialogueId });
  if (input.role) rest.push({ senderRole: input.role });
  const window = windowCondition('createdAt', input);
  if (Object.keys(window).length > 0) rest.push(window);
  if (keys.length === 0) return { filter: { $and: rest }, keys };
  // Two index branches, each read in createdAt order: messages holding every bigram, and those
  // whose key set was capped (very long texts), which only the regex can judge.
  return {
    filter: {
      $or: [{ $and: [{ searchKeys: { $all: keys } }, ...rest] }, { $and: [{ searchKeys: CAPPED_KEY }, ...rest] }],
    },
    keys,
  };
}
