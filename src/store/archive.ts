// BR-002: a dialogue keeps at most 1000 messages in its live record (`messages`); beyond that,
// its oldest closed sessions are moved to `archivedMessages`, never lost.
//
// No transactions (FerretDB 1.24), so the move is ordered and idempotent instead:
//   1. copy a batch of the session's messages into `archivedMessages` (replaceOne + upsert by _id),
//   2. delete exactly those messages from `messages` (only if unchanged since they were read),
//   3. repeat until the session has no live message, then mark the session archived,
//   4. set the dialogue's messageCount to the live count.
// A message is deleted only after its copy is stored, and a copy is keyed by the message id, so
// a crash anywhere leaves every message in at least one collection and at most once in each. A
// re-run first finishes any closed session a crashed run had started (copies present, session
// not yet marked), then picks sessions again from the live counts.
//
// Callers should not run this concurrently with deleteDialogue for the same dialogue.
import { tailIdOf } from './windows.js';
import type { AnyBulkWriteOperation } from 'mongodb';
import type { Collections } from './collections.js';
import type { ArchivedMessage } from '../domain/model.js';
import { MAX_LIVE_MESSAGES, sessionsToArchive, type SessionLoad } from '../domain/archiveRules.js';

/** Messages read, copied and deleted per pass. */
const BATCH = 500;
/**
 * Statements per copy bulkWrite. FerretDB 1.24 (SQLite) leaks a pooled connection for every
 * single-document update that matches within one `update` command and the pool holds 100, so a
 * command with ≥ 100 replacements of existing documents hangs forever. Stay well below that.
 */
const COPY_CHUNK = 50;
/** Passes in a row that moved nothing (every read message changed before its delete). */
const MAX_STALLED_PASSES = 3;

export interface ArchiveResult {
  /** Sessions archived (or finished after an interrupted run) by this call, oldest first. */
  archivedSessions: string[];
  /** Messages removed from the live record by this call. */
  movedMessages: number;
}

export async function archiveOverflow(
  c: Collections,
  dialogueId: string,
  now: Date,
  limit: number = MAX_LIVE_MESSAGES,
): Promise<ArchiveResult> {
  assertId(dialogueId);
  const archivedSessions: string[] = [];
  let movedMessages = 0;

  // 1. Closed sessions a crashed run started moving (copies exist, not marked yet): finish them.
  const unmarked = await c.sessions
    .find({ dialogueId, status: 'closed', archived: { $ne: true } }, { projection: { _id: 1 } })
    .sort({ startedAt: 1, _id: 1 })
    .toArray();
  if (unmarked.length > 0) {
    const started = await c.archivedMessages
      .aggregate<{ _id: string }>([
        { $match: { dialogueId, sessionId: { $in: unmarked.map((s) => s._id) } } },
        { $group: { _id: '$sessionId' } },
      ])
      .toArray();
    const startedIds = new Set(started.map((g) => g._id));
    for (const s of unmarked) {
      if (!startedIds.has(s._id)) continue;
      movedMessages += await archiveSession(c, dialogueId, s._id, now);
      archivedSessions.push(s._id);
    }
  }

  // 2. Live messages per session; archive the oldest closed sessions while over the limit.
  const counts = await c.messages
    .aggregate<{ _id: string; n: number }>([
      { $match: { dialogueId } },
      { $group: { _id: '$sessionId', n: { $sum: 1 } } },
    ])
    .toArray();
  const live = counts.reduce((sum, g) => sum + g.n, 0);
  if (live > limit) {
    const perSession = new Map(counts.map((g) => [g._id, g.n]));
    const sessions = await c.sessions
      .find({ dialogueId, _id: { $in: [...perSession.keys()] } }, { projection: { _id: 1, status: 1, startedAt: 1 } })
      .toArray();
    const loads: SessionLoad[] = sessions.map((s) => ({
      _id: s._id,
      status: s.status,
      startedAt: s.startedAt,
      messageCount: perSession.get(s._id) ?? 0,
    }));
    for (const sessionId of sessionsToArchive(loads, live, limit)) {
      movedMessages += await archiveSession(c, dialogueId, sessionId, now);
      if (!archivedSessions.includes(sessionId)) archivedSessions.push(sessionId);
    }
  }

  // 4. The dialogue's counter follows the live record (recounted, so a re-run repairs it).
  const liveNow = await c.messages.countDocuments({ dialogueId });
  await c.dialogues.updateOne(
    { _id: dialogueId, messageCount: { $ne: liveNow } },
    { $set: { messageCount: liveNow, updatedAt: now } },
  );

  return { archivedSessions, movedMessages };
}

/** Moves every live message of one session to the archive, then marks the session. */
async function archiveSession(c: Collections, dialogueId: string, sessionId: string, now: Date): Promise<number> {
  let moved = 0;
  let stalled = 0;
  for (;;) {
    const batch = await c.messages
      .find({ dialogueId, sessionId })
      .sort({ createdAt: 1, _id: 1 })
      .limit(BATCH)
      .toArray();
    if (batch.length === 0) break;
    // 1. Copy: idempotent, a re-run overwrites the same archived document.
    for (let i = 0; i < batch.length; i += COPY_CHUNK) {
      const copies: AnyBulkWriteOperation<ArchivedMessage>[] = batch.slice(i, i + COPY_CHUNK).map((m) => ({
        replaceOne: { filter: { _id: m._id }, replacement: { ...m, archivedAt: now }, upsert: true },
      }));
      await c.archivedMessages.bulkWrite(copies, { ordered: false });
    }
    // 2. Delete what was copied, in one statement. A message updated in between keeps its live
    //    version and is copied again on the next pass (replacing its archived copy): no edit is lost.
    const { deletedCount } = await c.messages.deleteMany({
      dialogueId,
      sessionId,
      $or: batch.map((m) => ({ _id: m._id, updatedAt: m.updatedAt })),
    });
    moved += deletedCount;
    stalled = deletedCount === 0 ? stalled + 1 : 0;
    if (stalled >= MAX_STALLED_PASSES) {
      throw new Error(`archiving session ${sessionId}: its messages keep changing; not marked archived, re-run later`);
    }
  }
  // 3. Mark the session only once nothing of it is left live.
  await c.sessions.updateOne({ _id: sessionId }, { $set: { archived: true, archivedAt: now } });
  await c.windows.deleteOne({ _id: sessionId }); // a closed, archived session builds no more prompts
  await c.windows.deleteOne({ _id: tailIdOf(sessionId) });
  return moved;
}

/** The archived messages of one session, oldest first (operators can still read them). */
export function archivedMessagesOf(c: Collections, sessionId: string): Promise<ArchivedMessage[]> {
  return c.archivedMessages.find({ sessionId }).sort({ createdAt: 1, _id: 1 }).toArray();
}

export class ArchiveRepo {
  constructor(private readonly c: Collections) {}

  overflow(dialogueId: string, now: Date = new Date(), limit: number = MAX_LIVE_MESSAGES): Promise<ArchiveResult> {
    return archiveOverflow(this.c, dialogueId, now, limit);
  }

  ofSession(sessionId: string): Promise<ArchivedMessage[]> {
    return archivedMessagesOf(this.c, sessionId);
  }
}

function assertId(dialogueId: string): void {
  // An empty or missing id would turn `{ dialogueId }` into a filter matching other dialogues.
  if (typeof dialogueId !== 'string' || dialogueId.length === 0)
    throw new TypeError('dialogueId must be a non-empty string');
}
