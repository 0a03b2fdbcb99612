// The shapes the console reads from the GraphQL API (only the fields it asks for).
export interface Conn<T> {
  edges: Array<{ node: T }>;
  pageInfo?: { hasNextPage: boolean; hasPreviousPage?: boolean; endCursor: string | null };
}
export const nodes = <T>(c: Conn<T> | undefined | null): T[] => (c?.edges ?? []).map((e) => e.node);

export interface Named {
  id: string;
  name: string;
}
export interface HumanRef {
  id: string;
  displayName: string;
}

export interface DialogueSummary {
  id: string;
  title: string | null;
  type: string;
  status: string;
  messageCount: number;
  lastActivityAt: string;
  createdAt: string;
  chat: { platform: string; chatId: string; threadId: string | null };
  humans: HumanRef[];
  agents: Named[];
}

export interface SessionSummary {
  id: string;
  kind: string;
  status: string;
  startedAt: string;
  endedAt: string | null;
  closeReason: string | null;
  summary: string | null;
  stats: { messageCount: number; turnCount: number };
}

export interface MessageView {
  id: string;
  senderRole: 'human' | 'ai' | 'system';
  senderId: string;
  contentType: string;
  content: string;
  createdAt: string;
  visible: boolean;
  rejectedCode: string | null;
  turnId: string | null;
  delivery: { state: string; error: { code: string; message: string } | null } | null;
  attachments: Array<{ kind: string; state: string; fileName: string | null }>;
  /** Knowledge passages the reply cited as [n]. */
  sources: Array<{ n: number; documentName: string; relevanceScore: number; content: string }>;
}

export interface TurnView {
  id: string;
  kind: string;
  status: string;
  outcome: string | null;
  startedAt: string;
  closedAt: string | null;
  responseTimeMs: number | null;
  initiatorRole: string;
  initiatorId: string;
  responderRole: string;
  responderId: string;
  messages: Conn<MessageView>;
}

export interface EventView {
  id: string;
  kind: string;
  at: string;
  turnId: string | null;
  messageId: string | null;
  data: Record<string, unknown>;
}

export const MESSAGE_FIELDS =
  'id senderRole senderId contentType content createdAt visible rejectedCode turnId delivery { state error { code message } } attachments { kind state fileName } sources { n documentName relevanceScore content }';

export type BeatStatus = 'pending' | 'active' | 'done' | 'skipped';
export const BEAT_STATUSES: readonly BeatStatus[] = ['pending', 'active', 'done', 'skipped'];

/** A dialogue's story (seed 001): its background and that background's plot state here. */
export interface StoryView {
  background: { id: string; name: string; worldSetting: string };
  beats: Array<{ n: number; text: string; status: BeatStatus }>;
  /** Replies in a row without progress. */
  noUpdateCount: number;
  steps: Array<{ n: number; status: BeatStatus; at: string; by: string; messageIds: string[] }>;
}

export const STORY_FIELDS =
  'background { id name worldSetting } beats { n text status } noUpdateCount steps { n status at by messageIds }';
