// Contextual integrity (SPEC §13): what a person says stays in the chat they said it in. Every
// memory — and every text derived from a person's words — records where it was learned; these
// rules decide where it may be recalled. A person's private chats (a one-to-one chat with the
// agent on any of their linked identities: Telegram, Discord, web) count as one place; each
// group and each room is its own place. Pure.
import type { Dialogue, MemoryOrigin, MemoryVisibility } from './model.js';

/** The chat a prompt is built for, as the visibility rule sees it. */
export interface RecallPlace {
  dialogueId: string;
  /** A one-to-one chat with the person the memories are about. */
  private: boolean;
}

/** What the rule reads of a memory (or a derived text); both absent on records of earlier versions. */
export interface Placed {
  origin?: MemoryOrigin;
  visibility?: MemoryVisibility;
}

type ChatKind = Pick<Dialogue, '_id' | 'type' | 'roomId'>;

/** A one-to-one chat between one person and one agent (rooms and groups are not). */
export const isPrivateChat = (d: Pick<Dialogue, 'type' | 'roomId'>): boolean =>
  d.type === 'human_ai' && d.roomId === undefined;

export const originOf = (d: ChatKind): MemoryOrigin => ({
  dialogueId: d._id,
  scope: isPrivateChat(d) ? 'private' : 'group',
});

export const placeOf = (d: ChatKind): RecallPlace => ({ dialogueId: d._id, private: isPrivateChat(d) });

/**
 * Whether a memory may reach a prompt in `place`. A memory of unknown origin (written before
 * origins were kept) is private to its person: it is recalled in their private chats only.
 */
export function recallableIn(m: Placed, place: RecallPlace): boolean {
  if (m.visibility === 'shared') return true;
  if (!m.origin) return place.private;
  if (m.origin.dialogueId === place.dialogueId) return true;
  return m.origin.scope === 'private' && place.private;
}

/**
 * The place a memory belongs to, as one key: `private` for all of a person's private chats
 * (and unknown origins), `group:<dialogueId>` for a group or room. Memories are reconciled,
 * deduplicated and merged only within one home, so no write carries words from one place into
 * another's memory.
 */
export const homeOf = (origin: MemoryOrigin | undefined): string =>
  !origin || origin.scope === 'private' ? PRIVATE_HOME : `group:${origin.dialogueId}`;

export const PRIVATE_HOME = 'private';
