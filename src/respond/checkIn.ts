// Proactive check-in (SPEC §4.4): after a configured silence following an AI reply, the AI
// opens a turn of its own (initiator ai, responder human) with a short message. Nothing
// happens when the dialogue saw any activity since the reply. The turn is opened, and the
// history read, under the dialogue's state guard, as ingest and replies do. It lives in respond/:
// its AI message is produced as an answer's is, under generate's reply lease.
import { derivedId } from '../domain/ids.js';
import { newTurn, expiryCheckAt } from '../domain/turnRules.js';
import type { Dialogue, Turn } from '../domain/model.js';
import type { Scheduler } from '../lifecycle/scheduler.js';
import { openAiMessage } from '../store/aiMessages.js';
import { produceAiMessage } from './produceAiMessage.js';
import type { RespondDeps } from './respondDeps.js';
import type { ReplyRecord } from '../context/contextReads.js';
import { guardKeys } from '../store/stateGuard.js';
import { latestTurnOf } from '../store/latestTurn.js';
import { currentSessionFor } from '../lifecycle/currentSession.js';

export const CHECK_IN_INSTRUCTION =
  'The person has been quiet for a while since your last message. Send one short, warm check-in that fits the conversation so far. Do not repeat yourself.';

export type CheckInDeps = RespondDeps & { scheduler: Scheduler; sessionGapMs: number; responseWindowMs: number };
export type CheckInResult = 'sent' | 'activity_since' | 'no_dialogue' | 'pending_turn';
type Opened =
  | { kind: 'opened'; dialogue: Dialogue; turn: Turn; fresh: boolean; record: ReplyRecord }
  | { kind: 'activity_since' | 'no_dialogue' | 'pending_turn' };

/** Call through `generate` (src/respond/generate.ts), which holds the dialogue's reply lease. */
export async function proactiveCheckIn(
  deps: CheckInDeps,
  dialogueId: string,
  since: Date,
  now: Date,
): Promise<CheckInResult> {
  const { store } = deps;
  const opened = await store.guard.run(guardKeys.dialogue(dialogueId), () =>
    openCheckInTurn(deps, dialogueId, since, now),
  );
  if (opened.kind !== 'opened') return opened.kind;
  const { dialogue, turn, fresh, record } = opened;
  const message = await openAiMessage(store, turn, derivedId('msg', 'checkin', turn._id), now);
  await produceAiMessage(deps, { turn, dialogue, reply: message, record, instruction: CHECK_IN_INSTRUCTION });
  await store.dialogues.noteActivity(dialogueId, { at: new Date(), currentSessionId: turn.sessionId, messages: 1 });
  await store.sessions.touch({ _id: turn.sessionId, dialogueId }, new Date(), { messages: 1, turns: fresh ? 1 : 0 });
  return 'sent';
}

async function openCheckInTurn(deps: CheckInDeps, dialogueId: string, since: Date, now: Date): Promise<Opened> {
  const { store } = deps;
  const dialogue = await store.dialogues.get(dialogueId);
  if (!dialogue || !dialogue.currentSessionId) return { kind: 'no_dialogue' };
  if (dialogue.lastActivityAt.getTime() > since.getTime()) return { kind: 'activity_since' };
  const latest = await latestTurnOf(store, dialogue);
  // The turn id is derived from the silence it answers, so a retried job opens no second turn.
  const turnId = derivedId('trn', 'checkin', dialogueId, String(since.getTime()));
  if (latest?.status === 'pending' && latest._id !== turnId) return { kind: 'pending_turn' };
  const humanId = dialogue.humanIds[0];
  const agentId = dialogue.agentIds[0];
  if (!humanId || !agentId) return { kind: 'no_dialogue' };

  const existing = latest?._id === turnId ? latest : await store.turns.get(turnId);
  let turn = existing;
  if (!turn) {
    const { session } = await currentSessionFor(deps, dialogue, now);
    turn = newTurn({
      id: turnId,
      dialogueId,
      sessionId: session._id,
      initiator: { role: 'ai', id: agentId },
      responder: { role: 'human', id: humanId },
      startedAt: now,
      responseWindowMs: deps.responseWindowMs,
    });
    await store.turns.insert(turn);
    await Promise.all([
      store.dialogues.setOpenTurn(dialogueId, turn._id),
      deps.scheduler.expireTurnAt(turn._id, expiryCheckAt(turn)),
    ]);
  }
  const session = await store.sessions.get(turn.sessionId);
  if (!session) return { kind: 'no_dialogue' };
  return {
    kind: 'opened',
    dialogue,
    turn,
    fresh: !existing,
    record: { session, window: await store.history.window(session) },
  };
}
