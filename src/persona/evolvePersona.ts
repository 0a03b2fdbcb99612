// Persona evolution (seed 001 更新记忆, SPEC §9): base persona (unchanged) + old evolved persona +
// the agent's most recent turns across its dialogues → a new evolved persona, stored on the agent
// with the old text kept in its history. Runs on demand or every
// `thresholds.persona_evolve_every_turns` replies (a post-turn hook counts them, `shouldEvolve`).
import type { Message, Turn } from '../domain/model.js';
import { GatewayError } from '../errors.js';
import { runJsonTask } from '../llm/jsonTask.js';
import type { Store } from '../store/store.js';
import type { AgentEvolution } from '../store/participants.js';
import type { MemoryTaskDeps } from '../memory/taskDeps.js';
import { transcriptOf } from '../summary/prompts.js';
import { isSaid } from '../domain/conversation.js';
import { renderOptionsFor } from '../summary/rollingSummary.js';
import {
  EVOLVE_PERSONA_INSTRUCTIONS,
  evolvePersonaOutputSchema,
  renderEvolveInput,
  type EvolveConversation,
} from './evolvePrompt.js';

export type EvolveDeps = Pick<MemoryTaskDeps, 'store' | 'llm' | 'model' | 'timeoutMs' | 'log'>;

export interface EvolveResult {
  before: string | undefined;
  after: string | undefined;
  /** Why nothing changed: no conversations yet, or another run evolved it meanwhile. */
  skipped?: 'no_conversations' | 'evolved_meanwhile';
}

export const DEFAULT_EVOLVE_TURNS = 20;
const TASK = 'evolve_persona';

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

/** The turns' usable messages grouped per dialogue; dialogues ordered by their latest turn, oldest first. */
async function conversationsOf(store: Store, turns: Turn[]): Promise<EvolveConversation[]> {
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
  const out: EvolveConversation[] = [];
  for (const [dialogueId, messages] of byDialogue) {
    if (messages.length === 0) continue;
    const dialogue = await store.dialogues.get(dialogueId);
    const label = dialogue?.title ?? `${dialogue?.type ?? 'dialogue'} ${dialogueId}`;
    out.push({ label, lines: transcriptOf(messages, await renderOptionsFor(store, dialogue)) });
  }
  return out;
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
  const r = await runJsonTask(deps.llm, {
    task: TASK,
    model: deps.model,
    instructions: EVOLVE_PERSONA_INSTRUCTIONS,
    input,
    schema: evolvePersonaOutputSchema,
    timeoutMs: deps.timeoutMs,
  });
  const after = r.value.evolvedPersona;

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
        after,
        ...(r.usage ? { usage: r.usage } : {}),
      },
    })
    .catch((err: unknown) => deps.log.warn({ err }, 'recording the persona evolution call failed'));

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
    return { before, after: now?.evolvedPersona, skipped: 'evolved_meanwhile' };
  }
  deps.log.info({ agentId: agent._id, turns: turns.length }, 'persona evolved');
  return { before, after };
}
