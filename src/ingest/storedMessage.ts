// A message found already stored when it arrives: an album's next item, a redelivered update
// (answered at most once), or an orphan — stored, but cut off its turn by a crash — which is
// placed again as if new (turnRules `placedAgain`). Runs under the dialogue's state guard.
import type { Dialogue, Message, Turn } from '../domain/model.js';
import type { Store } from '../store/store.js';
import { placedAgain, pointerBehind } from '../domain/turnRules.js';
import { belongsInWindow } from '../domain/windowRules.js';
import { locate, type ChatPlace, type LocateQuery } from './chatPlace.js';
import { toAttachment } from './inboundMessage.js';
import type { InboundMessage } from './inboundEvent.js';
import type { IngestDeps, IngestResult } from './ingest.js';

/**
 * Where an arriving message stands: `known` when it is already stored where it belongs; else
 * the place it goes, with `orphan` the stored copy it replaces when it is placed again.
 */
export type Found =
  | { kind: 'known'; existing: Message; turn: Turn | undefined; dialogue: Dialogue | null }
  | { kind: 'new'; place: ChatPlace; orphan: Message | undefined };

/** Locates the message; a stored one that must be placed again is located again, as new. */
export async function locateMessage(deps: IngestDeps, q: LocateQuery): Promise<Found> {
  const located = await locate(deps, q);
  if (located.kind === 'placed') return { kind: 'new', place: located, orphan: undefined };
  const { existing, dialogue } = located;
  const turn = await turnOf(deps.store, existing);
  if (!placedAgain(turn, existing._id)) return { kind: 'known', existing, turn: turn ?? undefined, dialogue };
  const again = await locate(deps, { ...q, replacing: true });
  if (again.kind === 'stored') throw new Error(`message ${q.messageId} could not be placed again`);
  return { kind: 'new', place: again, orphan: existing };
}

/** The turn a stored message names: null when it names one that was never stored, undefined when none. */
async function turnOf(store: Store, existing: Message): Promise<Turn | null | undefined> {
  return existing.turnId ? store.turns.get(existing.turnId) : undefined;
}

/** A message we already hold: an album's next item, or a redelivered update (answered at most once). */
export async function ingestKnown(
  deps: IngestDeps,
  ev: InboundMessage,
  known: Extract<Found, { kind: 'known' }>,
  o: { albumId: string | undefined; now: Date },
): Promise<IngestResult> {
  const { store } = deps;
  const { existing, turn, dialogue } = known;
  if (o.albumId && existing.platformRef?.messageId !== ev.platformMessageId) {
    await store.messages.appendAlbumItems(
      existing,
      ev.attachments.map((a) => toAttachment(a, o.now)),
      ev.text?.trim() || undefined,
      o.now,
    );
    return { kind: 'album_item', messageId: o.albumId };
  }
  if (turn?.status === 'pending') {
    // The message and its window entry are written together; if the server died between the
    // two, the reply would read a window without it. Put back while the reply has not read it.
    if (!turn.replyStartedAt && belongsInWindow(existing)) await store.windows.put(existing, o.now);
    if (dialogue) await pointAtTurn(store, dialogue, turn);
    // If its job was lost, enqueueing again is harmless: the job id is derived from the turn.
    await deps.enqueueReply({ turnId: turn._id, dialogueId: turn.dialogueId });
  }
  return { kind: 'duplicate', messageId: existing._id };
}

/** Moves the dialogue's turn and session pointers to this turn if they lag behind it (`pointerBehind`). */
async function pointAtTurn(store: Store, dialogue: Dialogue, turn: Turn): Promise<void> {
  const pointer = dialogue.openTurnId;
  if (pointer === undefined || pointer === turn._id) return; // undefined: rebuilt on the next read (latestTurn.ts)
  const pointed = pointer === null ? null : await store.turns.get(pointer);
  if (pointerBehind(pointed, turn)) await store.dialogues.setOpenTurn(dialogue._id, turn._id, turn.sessionId);
}
