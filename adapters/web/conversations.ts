// Seed 004's Conversation and Message (§7) as views of our Dialogue and Message: a web
// conversation is a Dialogue on platform `web` whose chat id is the conversation id.
import type { ChatRef, Dialogue, Message } from '../../src/domain/model.js';
import { dialogueIdOf } from '../../src/store/dialogues.js';
import { displayedText } from '../../src/domain/displayedText.js';
import { WEB_PLATFORM } from './platform.js';
import type { SourceReferenceData, TokenUsage } from './streamEvents.js';

export const webChat = (conversationId: string): ChatRef => ({ platform: WEB_PLATFORM, chatId: conversationId });
export const conversationDialogueId = (conversationId: string) => dialogueIdOf(webChat(conversationId));
/** Conversation ids are ours (`conv_…`); anything else is not one, without a read. */
export const isConversationId = (id: string) => /^conv_[a-z0-9]{9,40}$/.test(id);

export interface ConversationView {
  id: string;
  dialogueId: string;
  assistantId: string;
  /** Set when the conversation is a room's: several agents answer, each reply names its agent. */
  roomId?: string;
  title: string;
  status: 'active' | 'archived';
  messageCount: number;
  startedAt: string;
  lastMessageAt: string;
}

export interface MessageView {
  id: string;
  conversationId: string;
  role: 'user' | 'assistant' | 'system';
  /** In a room's conversation, the agent that wrote an assistant message (replies come from several). */
  agentId?: string;
  content: string;
  /**
   * How the message stands: a reply's delivery state (streaming, complete, interrupted, error,
   * …); `complete` for what people and the system wrote.
   */
  state: string;
  metadata: { sources?: SourceReferenceData[]; tokensUsed?: TokenUsage };
  createdAt: string;
}

export function conversationView(d: Dialogue): ConversationView {
  return {
    id: d.chat.chatId,
    dialogueId: d._id,
    assistantId: d.agentIds[0] ?? '',
    ...(d.roomId ? { roomId: d.roomId } : {}),
    title: d.title ?? '',
    status: d.status,
    messageCount: d.messageCount,
    startedAt: d.createdAt.toISOString(),
    lastMessageAt: d.lastActivityAt.toISOString(),
  };
}

const ROLES = { human: 'user', ai: 'assistant', system: 'system' } as const;

/** `inRoom`: the conversation is a room's, so each reply names its agent (seed 004's shape otherwise). */
export function messageView(m: Message, conversationId: string, inRoom = false): MessageView {
  const sources = m.sources?.map(({ documentId, documentName, content, relevanceScore }) => ({
    documentId,
    documentName,
    content,
    relevanceScore,
  }));
  return {
    id: m._id,
    conversationId,
    role: ROLES[m.senderRole],
    ...(inRoom && m.senderRole === 'ai' ? { agentId: m.senderId } : {}),
    content: displayedText(m),
    state: m.delivery?.state ?? 'complete',
    metadata: {
      ...(sources?.length ? { sources } : {}),
      ...(m.delivery?.usage ? { tokensUsed: m.delivery.usage } : {}),
    },
    createdAt: m.createdAt.toISOString(),
  };
}
