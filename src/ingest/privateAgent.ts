// A private chat with the deployment's bot talks to the agent its person chose (`/agent`), or to
// the default agent. Each chosen agent has its own dialogue there (ChatRef.agentId), so its
// thread, memory and persona stay its own; the choice is kept on the chat's first dialogue.
import type { ChatRef } from '../domain/model.js';
import type { Store } from '../store/store.js';
import { dialogueIdOf } from '../store/dialogues.js';

/** The chat as the record names it: with the chosen agent when its person chose one. */
export async function withChosenAgent(store: Store, chat: ChatRef, kind: 'private' | 'group'): Promise<ChatRef> {
  // Groups are shared, and an agent's own bot already names its agent.
  if (kind !== 'private' || chat.bot) return chat;
  const chosen = (await store.dialogues.get(dialogueIdOf(chat)))?.settings?.chosenAgentId;
  return chosen ? { ...chat, agentId: chosen } : chat;
}

/** Who a new dialogue of this chat is with: the agent whose bot holds it, the chosen one, or the default. */
export const chatAgentId = (chat: ChatRef, defaultAgentId: string): string =>
  chat.bot ?? chat.agentId ?? defaultAgentId;
