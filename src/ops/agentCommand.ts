// Whom a private chat talks to, as people choose it in chat: `/agents` lists the agents,
// `/agent NAME` (or its number) switches the chat to one. Each agent keeps its own dialogue of
// the chat (src/ingest/privateAgent.ts), so switching back resumes its thread and memories.
// A command, not a turn: the list is a query over the (few) agents, off the hot path.
import type { Agent, ChatRef } from '../domain/model.js';
import { text, type Locale, type TextKey } from '../i18n/texts.js';
import type { Store } from '../store/store.js';
import { dialogueIdOf } from '../store/dialogues.js';

type Listed = Pick<Agent, '_id' | 'name' | 'aliases' | 'introduction' | 'isDefault'>;

/** `/agents` or `/agent NAME` in a private chat (the registry refuses them in a group). */
export interface AgentCommand {
  /** The agent asked for, as the registry parsed it; empty: the list. */
  wanted: string;
  /** The chat the command was sent in, as the record names it (with its chosen agent, if any). */
  chat: ChatRef;
}

/** What the chat answers: the text and its notice code. */
export interface AgentCommandAnswer {
  shown: string;
  code: TextKey;
}

export async function runAgentCommand(
  store: Store,
  c: AgentCommand,
  locale: Locale,
  now: Date,
): Promise<AgentCommandAnswer> {
  const say = (code: TextKey, vars?: Record<string, string | number>) => ({ shown: text(code, locale, vars), code });
  if (c.chat.bot) return say('AGENT_OWN_BOT', { name: (await store.participants.getAgent(c.chat.bot))?.name ?? '' });
  const agents = await store.participants.privateChatAgents();
  const current = agents.find((a) => (c.chat.agentId ? a._id === c.chat.agentId : a.isDefault));
  const wanted = c.wanted;
  if (!wanted) {
    const list = agents.map((a, i) => `${i + 1}. ${a.name}${a.introduction ? ` — ${a.introduction}` : ''}`).join('\n');
    return say('AGENT_LIST', { list, current: current?.name ?? '—' });
  }
  const agent = pick(agents, wanted);
  if (!agent)
    return say('AGENT_UNKNOWN', { name: wanted, names: agents.map((a) => a.name).join(locale === 'en' ? ', ' : '、') });
  // Kept on the chat's first dialogue; the default agent is the chat's own, so no choice at all.
  const { agentId: _chosen, ...firstChat } = c.chat;
  await store.dialogues.chooseAgent(dialogueIdOf(firstChat), agent.isDefault ? null : agent._id, now);
  return say('AGENT_SWITCHED', { name: agent.name });
}

/** By number in the list, name or alias (case-insensitive). */
function pick(agents: readonly Listed[], wanted: string): Listed | undefined {
  if (/^\d{1,3}$/.test(wanted)) return agents[Number(wanted) - 1];
  const w = wanted.toLowerCase();
  return agents.find((a) => a.name.toLowerCase() === w || (a.aliases ?? []).some((x) => x.toLowerCase() === w));
}
