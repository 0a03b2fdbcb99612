// Proactive check-in (SPEC §4.4): after a configured silence following an AI reply, the AI
// opens a turn of its own (initiator ai, responder human) with a short message. Nothing
// happens when the dialogue saw any activity since the reply.
import { derivedId } from '../domain/ids.js';
import { newTurn, expiryCheckAt } from '../domain/turnRules.js';
import { decideSession } from '../domain/sessionRules.js';
import type { Scheduler } from './scheduler.js';
import { openAiMessage, produceAiMessage, type RespondDeps } from '../respond/respondToTurn.js';

export const CHECK_IN_INSTRUCTION =
  'The person has been quiet for a while since your last message. Send one short, warm check-in that fits the conversation so far. Do not repeat yourself.';

export async function proactiveCheckIn(
  deps: RespondDeps & { scheduler: Scheduler; sessionGapMs: number; responseWindowMs: number },
  dialogueId: string,
  since: Date,
  now: Date,
): Promise<'sent' | 'activity_since' | 'no_dialogue' | 'pending_turn'> {
  const { store } = deps;
  const dialogue = await store.dialogues.get(dialogueId);
  if (!dialogue || !dialogue.currentSessionId) return 'no_dialogue';
  if (dialogue.lastActivityAt.getTime() > since.getTime()) return 'activity_since';
  const current = await store.sessions.get(dialogue.currentSessionId);
  if (current && (await store.turns.openIn(current._id))) return 'pending_turn';
  const humanId = dialogue.humanIds[0];
  const agentId = dialogue.agentIds[0];
  if (!humanId || !agentId) return 'no_dialogue';

  const decision = decideSession(current, now, deps.sessionGapMs);
  let sessionId = decision.action === 'continue' ? decision.sessionId : undefined;
  if (!sessionId) {
    if (decision.action === 'rollover') await store.sessions.close(decision.closeSessionId, 'timeout', decision.closedAt);
    sessionId = (await store.sessions.open(dialogueId, 'dialogue', now))._id;
  }
  // The turn id is derived from the silence it answers, so a retried job opens no second turn.
  const turn = newTurn({
    id: derivedId('trn', 'checkin', dialogueId, String(since.getTime())),
    dialogueId,
    sessionId,
    initiator: { role: 'ai', id: agentId },
    responder: { role: 'human', id: humanId },
    startedAt: now,
    responseWindowMs: deps.responseWindowMs,
  });
  const existing = await store.turns.get(turn._id);
  if (!existing) {
    await store.turns.insert(turn);
    await deps.scheduler.expireTurnAt(turn._id, expiryCheckAt(turn));
  }
  const t = existing ?? turn;
  const message = await openAiMessage(store, t, derivedId('msg', 'checkin', t._id), now);
  await produceAiMessage(deps, { turn: t, dialogue, reply: message, instruction: CHECK_IN_INSTRUCTION });
  await store.dialogues.noteActivity(dialogueId, { at: new Date(), currentSessionId: sessionId, messages: 1 });
  await store.sessions.touch(sessionId, new Date(), { messages: 1, turns: existing ? 0 : 1 });
  return 'sent';
}

