// A person opens a conversation with an agent on a channel where they start it themselves (the
// web): the dialogue is created up front with that agent, so every later message there is
// answered by it (ingest reads the dialogue's own agent). Platform-free: the caller names the chat.
import { GatewayError } from '../errors.js';
import type { ChatRef, Dialogue, PlatformIdentity } from '../domain/model.js';
import type { Store } from '../store/store.js';
import { DEFAULT_AGENT_ID } from '../store/participants.js';

export async function openDialogue(
  store: Store,
  o: { chat: ChatRef; identity: PlatformIdentity; agentId?: string; at: Date },
): Promise<Dialogue> {
  const agentId = o.agentId ?? DEFAULT_AGENT_ID;
  const [agent, human] = await Promise.all([
    store.participants.getAgent(agentId),
    store.participants.resolveHuman(o.identity, o.at),
  ]);
  // External agents answer through their seats in rooms, never through the model.
  if (!agent || agent.external) throw new GatewayError('NOT_FOUND', `no agent with id ${agentId} to talk to`);
  return store.dialogues.resolve(o.chat, { type: 'human_ai', humanId: human._id, agentId, at: o.at });
}
