// The user persona card as an operator sees it (I/O, then the pure builder): the same inputs a
// turn uses, read without a current message — the human's last messages, the agent's most
// important active memories about them (a turn uses the recalled ones instead), their visits and
// last topic (kept on the human, as a turn reads them), and their stored tone. Every read is bounded.
import type { Human } from '../domain/model.js';
import type { Store } from '../store/store.js';
import { buildUserPersonaCard, type UserPersonaCard } from './userPersonaCard.js';

const RECENT_DIALOGUES = 50;
const RECENT_TEXTS = 10;
const MEMORIES = 50;

export async function currentPersonaCard(store: Store, human: Human, agentId: string): Promise<UserPersonaCard> {
  const dialogueIds = await store.dialogues.recentIdsWith(human._id, agentId, RECENT_DIALOGUES);
  const [texts, memories, visits] = await Promise.all([
    store.messages.recentSaidBy(human._id, dialogueIds, RECENT_TEXTS),
    store.memories.mostImportant({ ownerId: agentId, subjectId: human._id }, MEMORIES),
    store.participants.visitsOf(human, agentId),
  ]);
  return buildUserPersonaCard({
    displayName: human.displayName,
    recentHumanTexts: texts.map((m) => m.content),
    memories: memories.map((m) => ({ kind: m.kind, text: m.text, importance: m.importance })),
    visits: visits.count,
    ...(visits.lastTopic ? { lastTopic: visits.lastTopic.text } : {}),
    ...(human.tone ? { tone: human.tone } : {}),
  });
}
