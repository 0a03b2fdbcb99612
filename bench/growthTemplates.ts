// The documents one real turn writes, captured from the running app, so the padding clones
// today's shapes rather than a copy of them written by hand: when the core changes what a turn
// stores, the padding follows without edits here.
import type { Collections } from '../src/store/collections.js';
import type { Dialogue, EventLog, Human, MemoryEntry, Message, Session, Turn } from '../src/domain/model.js';
import { HashedNgramEmbedder } from '../src/memory/hashedNgramEmbedder.js';
import { toMemoryEmbedding } from '../src/memory/vectors.js';
import { dedupeKeyOf } from '../src/memory/normalize.js';
import { newId } from '../src/domain/ids.js';
import type { PipelineRig } from './pipeline.js';
import { memoryIdle } from './memoryIdle.js';

export interface TurnTemplates {
  dialogue: Dialogue;
  human: Human;
  session: Session;
  turn: Turn;
  humanMessage: Message;
  aiMessage: Message;
  /** Every event stored under the turn (context, LLM calls, delivery, memory extraction…). */
  events: EventLog[];
  memory: MemoryEntry;
  /** Whether `memory` was written by the turn's own extraction (false: built from the MemoryEntry type). */
  memoryFromTurn: boolean;
}

function must<T>(v: T | null | undefined, what: string): T {
  if (v === null || v === undefined) throw new Error(`growth templates: no ${what} after the template turn`);
  return v;
}

/** A memory as extraction writes one, for when the template turn's extraction wrote none. */
function memoryFromType(t: Pick<TurnTemplates, 'turn' | 'humanMessage' | 'aiMessage'>): MemoryEntry {
  const embedder = new HashedNgramEmbedder(256); // the offline embedder at EMBEDDING_DIMS' default
  const text = `User said: ${t.humanMessage.content.slice(0, 120)}`;
  const at = t.turn.closedAt ?? t.turn.startedAt;
  return {
    _id: newId('mem', at),
    ownerId: t.turn.responderId,
    subjectId: t.turn.initiatorId,
    kind: 'fact',
    text,
    dedupeKey: dedupeKeyOf(t.turn.responderId, t.turn.initiatorId, text),
    embedding: toMemoryEmbedding(embedder.id, embedder.embedOne(text)),
    importance: 0.6,
    sources: {
      dialogueId: t.turn.dialogueId,
      sessionId: t.turn.sessionId,
      turnIds: [t.turn._id],
      messageIds: [t.humanMessage._id, t.aiMessage._id],
    },
    occurredAt: t.humanMessage.createdAt,
    status: 'active',
    recall: { count: 0 },
    createdAt: at,
    updatedAt: at,
  };
}

/**
 * Sends one message in a new chat through the rig, waits for the reply and the memory jobs it
 * schedules, and reads back what was stored (through `c`, a client other than the app's).
 */
export async function captureTemplates(rig: PipelineRig, c: Collections, text: string): Promise<TurnTemplates> {
  const r = await rig.send(rig.event(rig.newChat(), text));
  if (r.kind !== 'accepted') throw new Error(`growth templates: inbound was ${r.kind}, expected accepted`);
  await rig.finished(r.turnId, 120_000);
  if (!(await memoryIdle(rig.memory, 60_000)))
    throw new Error('growth templates: memory jobs still running after 60 s');

  const turn = must(await c.turns.findOne({ _id: r.turnId }), 'turn');
  const [messages, events, session, dialogue, human, memory] = await Promise.all([
    c.messages.find({ turnId: turn._id }).toArray(),
    c.events.find({ turnId: turn._id }).sort({ at: 1, _id: 1 }).toArray(),
    c.sessions.findOne({ _id: turn.sessionId }),
    c.dialogues.findOne({ _id: turn.dialogueId }),
    c.humans.findOne({ _id: turn.initiatorId }),
    c.memories.findOne({ 'sources.turnIds': turn._id }),
  ]);
  const humanMessage = must(
    messages.find((m) => m.senderRole === 'human'),
    'human message',
  );
  const aiMessage = must(
    messages.find((m) => m.senderRole === 'ai'),
    'AI message',
  );
  const base = { turn, humanMessage, aiMessage };
  return {
    ...base,
    dialogue: must(dialogue, 'dialogue'),
    human: must(human, 'human'),
    session: must(session, 'session'),
    events,
    memory: memory ?? memoryFromType(base),
    memoryFromTurn: memory !== null,
  };
}
