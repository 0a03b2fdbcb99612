// The user persona card as an operator sees it (I/O, then the pure builder): the same inputs a
// turn uses, read without a current message — the human's last messages, the agent's most
// important active memories about them (a turn uses the recalled ones instead), their session
// count and last session summary, and their stored tone. Every read is bounded.
import type { Human } from '../domain/model.js';
import type { Store } from '../store/store.js';
import { buildUserPersonaCard, type UserPersonaCard } from './userPersonaCard.js';

const RECENT_DIALOGUES = 50;
const RECENT_TEXTS = 10;
const MEMORIES = 50;

export async function currentPersonaCard(store: Store, human: Human, agentId: string): Promise<UserPersonaCard> {
  const dialogues = await store.c.dialogues
    .find({ humanIds: human._id, agentIds: agentId }, { projection: { _id: 1 } })
    .sort({ lastActivityAt: -1, _id: -1 })
    .limit(RECENT_DIALOGUES)
    .toArray();
  const dialogueIds = dialogues.map((d) => d._id);
  const inDialogues = { dialogueId: { $in: dialogueIds } };
  const [texts, memories, visits, previous] = await Promise.all([
    store.c.messages
      .find({ ...inDialogues, senderId: human._id, senderRole: 'human', visible: true, rejected: { $exists: false }, deleted: { $exists: false }, contentType: { $ne: 'command' } })
      .sort({ createdAt: -1, _id: -1 })
      .limit(RECENT_TEXTS)
      .toArray(),
    store.c.memories.find({ ownerId: agentId, subjectId: human._id, status: 'active' }).sort({ importance: -1, _id: 1 }).limit(MEMORIES).toArray(),
    store.c.sessions.countDocuments(inDialogues),
    store.c.sessions.find({ ...inDialogues, status: 'closed', summary: { $exists: true } }).sort({ endedAt: -1 }).limit(1).next(),
  ]);
  return buildUserPersonaCard({
    displayName: human.displayName,
    recentHumanTexts: texts.reverse().map((m) => m.content),
    memories: memories.map((m) => ({ kind: m.kind, text: m.text, importance: m.importance })),
    visits,
    ...(previous?.summary ? { lastTopic: previous.summary } : {}),
    ...(human.tone ? { tone: human.tone } : {}),
  });
}
