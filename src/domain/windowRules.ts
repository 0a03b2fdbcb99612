// The working window's rules (SPEC §3 access rule): what an entry holds, how many are kept, and
// whether the window can answer a history read on its own. Pure.
import type { Message, SessionWindow, WindowEntry } from './model.js';
import { isConversation } from './conversation.js';

/** Entries kept after a trim: well past what a rolling-summary prompt shows (10–15 turns). */
export const WINDOW_KEEP = 200;
/** A trim runs once the window holds this many, so it is not rewritten on every message. */
export const WINDOW_TRIM_AT = 240;

/**
 * What the window stores of a message: the message minus its edit history and cited sources (and
 * the `searchKeys` that versions before the search index wrote on messages).
 */
export function toWindowEntry(m: Message | WindowEntry): WindowEntry {
  const { searchKeys: _keys, edits: _edits, sources: _sources, ...entry } = m as Message & { searchKeys?: unknown };
  return entry;
}

/** The window as it is once this message's entry is put (`put` in src/store/windows.ts). */
export function windowWith(w: SessionWindow, m: Message): SessionWindow {
  if (!belongsInWindow(m)) return w;
  return { ...w, entries: { ...w.entries, [m._id]: toWindowEntry(m) } };
}

/** Whether a message belongs in the window: conversation, and no longer streaming. */
export const belongsInWindow = (
  m: Pick<Message, 'visible' | 'rejected' | 'deleted' | 'contentType' | 'delivery'>,
): boolean => isConversation(m) && m.delivery?.state !== 'streaming';

const chronological = (a: WindowEntry, b: WindowEntry) =>
  a.createdAt.getTime() - b.createdAt.getTime() || (a._id < b._id ? -1 : a._id > b._id ? 1 : 0);

/** The window's conversation, oldest first (entries are stored keyed by id, in no order). */
export function windowMessages(w: Pick<SessionWindow, 'entries'>): WindowEntry[] {
  return Object.values(w.entries)
    .filter((e) => typeof e?._id === 'string' && e.createdAt instanceof Date && isConversation(e))
    .sort(chronological);
}

/**
 * Whether the window holds every conversation message created at or after `since` (absent:
 * the whole session). A window never trimmed holds the whole session.
 */
export function windowCovers(w: Pick<SessionWindow, 'trimmedBefore'>, since?: Date): boolean {
  if (!w.trimmedBefore) return true;
  return since !== undefined && since.getTime() >= w.trimmedBefore.getTime();
}

/** Entries to drop so WINDOW_KEEP remain, and the new completeness boundary; none below WINDOW_TRIM_AT. */
export function trimPlan(w: Pick<SessionWindow, 'entries'>): { drop: string[]; trimmedBefore: Date } | undefined {
  const all = Object.values(w.entries).sort(chronological);
  if (all.length < WINDOW_TRIM_AT) return undefined;
  const drop = all.slice(0, all.length - WINDOW_KEEP);
  const firstKept = all[drop.length];
  if (!firstKept) return undefined;
  return { drop: drop.map((e) => e._id), trimmedBefore: firstKept.createdAt };
}
