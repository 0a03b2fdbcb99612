// Persona evolution (seed 001 更新记忆, SPEC §9 and §13): base persona (unchanged) + old evolved
// persona + the agent's most recent turns across its dialogues → a new agent-wide evolved persona
// (checked: nothing naming or quoting a person stays), stored on the agent with the old text kept
// in its history; and, per person with private chats among those turns, a relationship note
// written from those chats only. Runs on demand or every
// `thresholds.persona_evolve_every_turns` replies (a post-turn hook counts them, `shouldEvolve`).
import type { Agent, Dialogue, Human, Message, Turn } from '../domain/model.js';
import { isPrivateChat } from '../domain/memoryOrigin.js';
import { scrubPeople, type KnownPeople } from './personaScrub.js';
import { calledNames } from '../domain/calledName.js';
import { GatewayError } from '../errors.js';
import { runJsonTask } from '../llm/jsonTask.js';
import { routeData } from '../llm/route.js';
import type { Store } from '../store/store.js';
import type { AgentEvolution } from '../store/participants.js';
import type { MemoryTaskDeps } from '../memory/taskDeps.js';
import { transcriptOf } from '../summary/summaryPrompts.js';
import { isSaid } from '../domain/conversation.js';
import { renderOptionsFor } from '../summary/rollingSummary.js';
import {
  EVOLVE_PERSONA_INSTRUCTIONS,
  evolvePersonaOutputSchema,
  RELATIONSHIP_NOTE_INSTRUCTIONS,
  relationshipNoteOutputSchema,
  renderEvolveInput,
  renderRelationshipInput,
} from './evolvePrompt.js';
import type { ConversationBlock } from '../memory/extractionPrompt.js';

export type EvolveDeps = Pick<MemoryTaskDeps, 'store' | 'llm' | 'model' | 'timeoutMs' | 'log'>;

export interface EvolveResult {
  before: string | undefined;
  after: string | undefined;
  /** Relationship notes rewritten (one per person with private chats among the recent turns). */
  notes?: number;
  /** Why nothing changed: no conversations yet, or another run evolved it meanwhile. */
  skipped?: 'no_conversations' | 'evolved_meanwhile';
}

export const DEFAULT_EVOLVE_TURNS = 20;
const TASK = 'evolve_persona';
const NOTE_TASK = 'relationship_note';

/**
 * Whether the reply that brought the counter to `repliesSince` should trigger an evolution:
 * every `everyTurns` replies (0 = only on demand). Multiples, not ≥, so a failing evolution is
 * tried again `everyTurns` replies later rather than after every reply.
 */
export function shouldEvolve(repliesSince: number, everyTurns: number): boolean {
  return everyTurns > 0 && repliesSince > 0 && repliesSince % everyTurns === 0;
}

/** The agent's latest answered turns, newest first: by `_id` from its recent list, or (an agent of an earlier version) by query. */
async function recentTurnsOf(store: Store, agent: AgentEvolution & { _id: string }, limit: number): Promise<Turn[]> {
  if (!agent.recentTurns) return store.turns.recentAnsweredOf(agent._id, limit);
  const found = await Promise.all(agent.recentTurns.slice(-limit).map((id) => store.turns.get(id)));
  return found.filter((t): t is Turn => t?.status === 'responded').reverse();
}

/** One dialogue's part of the recent turns: what was said, and who the dialogue is with. */
interface RecentConversation extends ConversationBlock {
  dialogue: Dialogue | null;
  humanTexts: string[];
}

/** The turns' usable messages grouped per dialogue; dialogues ordered by their latest turn, oldest first. */
async function conversationsOf(store: Store, turns: Turn[]): Promise<RecentConversation[]> {
  const chronological = [...turns].sort(
    (a, b) => a.startedAt.getTime() - b.startedAt.getTime() || (a._id < b._id ? -1 : 1),
  );
  const messagesByTurn = await Promise.all(chronological.map((t) => store.history.ofTurn(t)));
  const byDialogue = new Map<string, Message[]>();
  chronological.forEach((t, i) => {
    const list = byDialogue.get(t.dialogueId) ?? [];
    byDialogue.delete(t.dialogueId); // re-inserted: Map order follows the latest turn
    byDialogue.set(t.dialogueId, list.concat(messagesByTurn[i]!.filter(isSaid)));
  });
  const out: RecentConversation[] = [];
  for (const [dialogueId, messages] of byDialogue) {
    if (messages.length === 0) continue;
    const dialogue = await store.dialogues.get(dialogueId);
    const label = dialogue?.title ?? `${dialogue?.type ?? 'dialogue'} ${dialogueId}`;
    out.push({
      label,
      dialogue,
      lines: transcriptOf(messages, await renderOptionsFor(store, dialogue)),
      humanTexts: messages.filter((m) => m.senderRole === 'human').map((m) => m.content),
    });
  }
  return out;
}

/** Everyone in these conversations, by every name the agent may know them by, and what they said. */
async function knownPeopleOf(store: Store, conversations: readonly RecentConversation[]): Promise<KnownPeople> {
  const ids = [...new Set(conversations.flatMap((c) => c.dialogue?.humanIds ?? []))];
  const humans = (await Promise.all(ids.map((id) => store.participants.getHuman(id)))).filter(
    (h): h is Human => h !== null,
  );
  const said = conversations.flatMap((c) => c.humanTexts);
  const names = humans.flatMap((h) => [
    h.displayName,
    ...h.identities.flatMap((i) => [i.displayName ?? '', i.username ?? '']),
  ]);
  return { names: [...names, ...calledNames(said)].filter(Boolean), said };
}

export async function evolvePersona(
  deps: EvolveDeps,
  o: { agentId: string; now: Date; turns?: number },
): Promise<EvolveResult> {
  const { store } = deps;
  const agent = await store.participants.getAgentEvolution(o.agentId);
  if (!agent) throw new GatewayError('NOT_FOUND', `agent ${o.agentId} not found`);
  const before = agent.evolvedPersona;

  const turns = await recentTurnsOf(store, agent, o.turns ?? DEFAULT_EVOLVE_TURNS);
  const conversations = await conversationsOf(store, turns);
  if (conversations.length === 0) return { before, after: before, skipped: 'no_conversations' };

  const input = renderEvolveInput({
    name: agent.name,
    basePersona: agent.basePersona,
    ...(before ? { evolvedPersona: before } : {}),
    conversations,
  });
  const [r, known] = await Promise.all([
    runJsonTask(deps.llm, {
      task: TASK,
      model: deps.model,
      instructions: EVOLVE_PERSONA_INSTRUCTIONS,
      input,
      schema: evolvePersonaOutputSchema,
      timeoutMs: deps.timeoutMs,
    }),
    knownPeopleOf(store, conversations),
  ]);
  // Shown to everyone: whatever the model wrote, nothing naming or quoting a person stays.
  const scrubbed = scrubPeople(r.value.evolvedPersona, known);
  const after = scrubbed.text || before;

  const latest = turns[0]!;
  await store.events
    .record({
      kind: 'llm_call',
      dialogueId: latest.dialogueId,
      data: {
        task: TASK,
        model: deps.model,
        agentId: agent._id,
        turns: turns.length,
        durationMs: r.durationMs,
        before: before ?? null,
        after: after ?? null,
        scrubbedSentences: scrubbed.dropped,
        ...(r.usage ? { usage: r.usage } : {}),
        ...routeData(r),
      },
    })
    .catch((err: unknown) => deps.log.warn({ err }, 'recording the persona evolution call failed'));

  const notes = await evolveNotes(deps, agent, conversations, o.now);
  if (after === undefined || after === before) return { before, after: before, notes };
  const stored = await store.participants.setEvolvedPersona(
    agent._id,
    { text: after, at: o.now },
    {
      ...(before !== undefined ? { text: before } : {}),
      ...(agent.evolvedPersonaAt ? { at: agent.evolvedPersonaAt } : {}),
    },
  );
  if (!stored) {
    const now = await store.participants.getAgent(agent._id);
    return { before, after: now?.evolvedPersona, skipped: 'evolved_meanwhile', notes };
  }
  deps.log.info(
    { agentId: agent._id, turns: turns.length, notes, scrubbedSentences: scrubbed.dropped },
    'persona evolved',
  );
  return { before, after, notes };
}

/**
 * Each person's relationship note, from their private chats among the recent turns only (a
 * group's words never reach it). One person's failure leaves their note as it was.
 */
async function evolveNotes(
  deps: EvolveDeps,
  agent: Agent,
  conversations: readonly RecentConversation[],
  now: Date,
): Promise<number> {
  const byPerson = new Map<string, RecentConversation[]>();
  for (const c of conversations) {
    const humanId = c.dialogue && isPrivateChat(c.dialogue) ? c.dialogue.humanIds[0] : undefined;
    if (humanId) byPerson.set(humanId, [...(byPerson.get(humanId) ?? []), c]);
  }
  let written = 0;
  for (const [humanId, theirs] of byPerson) {
    try {
      await evolveNote(deps, agent, humanId, theirs, now);
      written++;
    } catch (err) {
      deps.log.warn({ err, agentId: agent._id, humanId }, 'relationship note not evolved');
    }
  }
  return written;
}

async function evolveNote(
  deps: EvolveDeps,
  agent: Agent,
  humanId: string,
  conversations: readonly RecentConversation[],
  now: Date,
): Promise<void> {
  const { store } = deps;
  const [human, current] = await Promise.all([
    store.participants.getHuman(humanId),
    store.relationships.get(agent._id, humanId),
  ]);
  const r = await runJsonTask(deps.llm, {
    task: NOTE_TASK,
    model: deps.model,
    instructions: RELATIONSHIP_NOTE_INSTRUCTIONS,
    input: renderRelationshipInput({
      name: agent.name,
      basePersona: agent.basePersona,
      person: human?.displayName ?? humanId,
      ...(current ? { note: current.text } : {}),
      conversations,
    }),
    schema: relationshipNoteOutputSchema,
    timeoutMs: deps.timeoutMs,
  });
  const dialogueIds = conversations.flatMap((c) => (c.dialogue ? [c.dialogue._id] : []));
  await store.relationships.put({
    agentId: agent._id,
    humanId,
    text: r.value.note,
    dialogueIds: [...new Set([...(current?.dialogueIds ?? []), ...dialogueIds])],
    updatedAt: now,
  });
}
