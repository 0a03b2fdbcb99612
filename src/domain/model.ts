// The conversation record (SPEC §3), as plain data. Collections store exactly these shapes;
// ids are strings, times are UTC Dates.

/** A chat platform's id, as its adapter registers it (app/platforms.ts): 'telegram', 'discord', … */
import type { AccessStanding, RefusalReason } from './access.js';
export type Platform = string;
export type Role = 'human' | 'ai' | 'system';

/** Where a dialogue lives on a platform. threadId is a forum topic or Discord thread. */
export interface ChatRef {
  platform: Platform;
  chatId: string;
  threadId?: string;
  /**
   * A private chat held by an agent's own bot (SPEC §8): that agent's id. Absent: the
   * deployment's bot holds it. A platform numbers messages per bot and chat, so every id derived
   * from the chat includes it (messageIds.ts, outbox.ts).
   */
  bot?: string;
  /**
   * A private chat with the deployment's bot whose person chose this agent (`/agent`): each
   * chosen agent keeps its own dialogue there — its own thread, memory and persona.
   */
  agentId?: string;
}

/** Seed 000's seven types; ① ② (human only) are not mediated, so they have no value here. */
export type DialogueType = 'human_ai' | 'ai_ai' | 'ai_self' | 'lio_group' | 'group';

export interface Dialogue {
  _id: string;
  type: DialogueType;
  chat: ChatRef;
  humanIds: string[];
  agentIds: string[];
  roomId?: string;
  title?: string;
  status: 'active' | 'archived';
  messageCount: number;
  currentSessionId?: string;
  /**
   * The dialogue's latest turn (hot-path pointer, SPEC §3): ingest joins or closes it without a
   * query. `null` when none was opened yet; absent on documents written before the pointer
   * existed (rebuilt on first touch, src/store/legacy.ts).
   */
  openTurnId?: string | null;
  /** Group chats: answer every message instead of only when addressed (SPEC §7). */
  settings?: {
    answerAll?: boolean;
    /** Seed 001's director: the outline and progress markers in the context, markers parsed into the plot. */
    director?: boolean;
    /**
     * A private chat with the deployment's bot: the agent its person chose (`/agent`). Kept on
     * the chat's first dialogue; messages then go to that agent's own (ChatRef.agentId).
     */
    chosenAgentId?: string;
  };
  /** The background (seed 001) its story follows now; each background keeps its own plot state. */
  backgroundId?: string;
  /** A group let in under an allowlist, or shut (SPEC §14); absent: the access mode decides. */
  access?: AccessStanding;
  lastActivityAt: Date;
  createdAt: Date;
  updatedAt: Date;
}

export type SessionKind = 'dialogue' | 'self_reflection';
export type SessionCloseReason = 'timeout' | 'manual' | 'task_completed' | 'summarized';

export interface Session {
  _id: string;
  dialogueId: string;
  kind: SessionKind;
  status: 'open' | 'closed';
  startedAt: Date;
  lastActivityAt: Date;
  endedAt?: Date;
  closeReason?: SessionCloseReason;
  summary?: string;
  stats: { messageCount: number; turnCount: number };
  /** BR-002: the session's messages were moved to `archivedMessages` (see src/store/archive.ts). */
  archived?: boolean;
  archivedAt?: Date;
  /** Rolling summary (SPEC §5): every message before `coversUntil` is folded into `text`. */
  rollingSummary?: RollingSummary;
  /** A session opened by the summarise action starts from its predecessor's summary and last turns. */
  seed?: SessionSeed;
  /**
   * The dialogue's session before this one, when this one opened after the gap: its last turns
   * and summary are carried into this session's prompts (`thresholds.carry_over_turns`).
   */
  previous?: PreviousSession;
}

export interface PreviousSession {
  sessionId: string;
  /** When it ended (its last activity). */
  endedAt: Date;
}

export interface RollingSummary {
  text: string;
  /** Messages created before this instant are in the summary; later ones stay raw. */
  coversUntil: Date;
  turnsFolded: number;
  updatedAt: Date;
}

export type SummaryOrder = 'summary_first' | 'last_n_first';

export interface SessionSeed {
  fromSessionId: string;
  summary: string;
  /** The predecessor's last N turns, shown raw (they stay stored in their own session). */
  messageIds: string[];
  order: SummaryOrder;
}

export type TurnStatus = 'pending' | 'responded' | 'unresponded';

export interface Turn {
  _id: string;
  dialogueId: string;
  sessionId: string;
  kind: 'dialogue' | 'introspection';
  initiatorRole: Role;
  initiatorId: string;
  responderRole: Role;
  responderId: string;
  startedAt: Date;
  responseWindowMs: number;
  deadlineAt: Date;
  status: TurnStatus;
  /** Set when the responder starts answering; later initiator messages open a new turn. */
  replyStartedAt?: Date;
  /**
   * The turn's messages its reply read (set with replyStartedAt; each retried attempt records
   * its own read). A message of the turn missing here was not in that prompt and is placed
   * again when redelivered (turnRules `missedByReply`); one listed here never moves.
   */
  heard?: string[];
  closedAt?: Date;
  /** Milliseconds from startedAt to the responder's message. */
  responseTime?: number;
  /** How the reply ended, mirrored from the reply message for fast listing. */
  outcome?: DeliveryState;
  /** The responder's message that closed the turn (set for AI-initiated turns). */
  responseMessageId?: string;
  /**
   * A room's ask (SPEC §8): the round it belongs to, the message the round's input starts from
   * (everything said since is this ask's input) and whether the agent may skip.
   */
  round?: { roundId: string; fromMessageId: string; canSkip: boolean };
  /**
   * The earlier turn of the dialogue whose reply was under way when this one opened: it is
   * answered first (domain/turnRules.ts `mustAnswerFirst`), even after a worker died mid-reply.
   */
  after?: string;
}

export const CONTENT_TYPES = [
  'text',
  'image',
  'audio',
  'file',
  'markdown',
  'quote_reply',
  'tool_input',
  'tool_output',
  'prompt',
  'system_context',
  'command',
] as const;
export type ContentType = (typeof CONTENT_TYPES)[number];

export type DeliveryState = 'streaming' | 'complete' | 'interrupted' | 'empty' | 'error' | 'timeout';

/** A platform message id: unique per (platform, chatId). */
export interface PlatformRef {
  platform: Platform;
  chatId: string;
  messageId: string;
  /** The agent whose own bot received it in a private chat (ChatRef.bot): message ids are per bot there. */
  bot?: string;
}

/**
 * What kind of media an attachment is; decides how it is turned into text (src/media). An
 * `animation` is a GIF (Telegram sends GIFs as silent MP4s): it is described by a frame.
 */
export const ATTACHMENT_KINDS = [
  'image',
  'animation',
  'audio',
  'voice',
  'video',
  'video_note',
  'document',
  'sticker',
] as const;
export type AttachmentKind = (typeof ATTACHMENT_KINDS)[number];

/**
 * Where turning an attachment into text stands (src/media). `failed` is retried with backoff
 * until `attempts` reaches the limit; `unsupported` means we keep only name, type and size.
 */
export type AttachmentState = 'pending' | 'done' | 'failed' | 'unsupported';

export interface AttachmentProcessing {
  state: AttachmentState;
  attempts: number;
  /** What the media says as text: image description, transcription, extracted document text. */
  text?: string;
  /** Which processor produced `text` (vision, transcription, pdf, plain, sticker). */
  via?: string;
  error?: { code: string; message: string };
  updatedAt: Date;
  nextAttemptAt?: Date;
}

/** One media item of a message (a Telegram album holds several). */
export interface Attachment {
  kind: AttachmentKind;
  /** Opaque to the core: how the platform's MediaSource finds the bytes (file_id, URL). */
  fileRef: string;
  uniqueId?: string;
  fileName?: string;
  mime?: string;
  size?: number;
  duration?: number;
  width?: number;
  height?: number;
  emoji?: string;
  setName?: string;
  /** A sticker's own name (Discord gives one; Telegram only the emoji and set). */
  stickerName?: string;
  /** Music: the track's title and performer (Telegram audio tags). */
  title?: string;
  performer?: string;
  /** A still frame the platform made of a GIF or video (Telegram's thumbnail), for its description. */
  frameRef?: string;
  /** The platform message that carried it. */
  sourceMessageId: string;
  processing: AttachmentProcessing;
}

/** The message a quote_reply points at, inlined so the context names its source (seed 000). */
export interface Quote {
  /** Our stored message, when we have it. */
  messageId?: string;
  platformMessageId: string;
  senderRole?: Role;
  senderId?: string;
  senderName?: string;
  text: string;
  /** What the quoted message carried (a captionless photo or GIF is still something). */
  media?: QuotedMedia[];
  /** The user quoted only part of the message (Telegram partial quote). */
  partial?: boolean;
}

/** One attachment of a quoted message: its kind, its name, and what it showed or said when known. */
export interface QuotedMedia {
  kind: AttachmentKind;
  fileName?: string;
  /** Its description or transcription, when the stored original has one. */
  text?: string;
}

export interface ContentMeta {
  caption?: string;
  transcription?: string;
  mime?: string;
  size?: number;
  duration?: number;
  fileRef?: string;
  attachments?: Attachment[];
  quote?: Quote;
  /** Telegram album id: all items of the album are this one message. */
  mediaGroupId?: string;
  /** Display name of the human sender at the time (group chats render "name: text"). */
  senderName?: string;
}

/** A previous version of an edited message. */
export interface MessageEdit {
  content: string;
  editedAt: Date;
}

export interface Delivery {
  state: DeliveryState;
  /** Platform message ids carrying this message, in order (long replies are split). */
  platformMessageIds: string[];
  /** Stable code and plain text when state is error/timeout. */
  error?: { code: string; message: string };
  /**
   * What people were shown at the end, when it differs from `content` (what the model said):
   * a notice, a stopped mark, markers and invalid citations taken out. The web channel resends it.
   */
  shown?: string;
  /** Tokens the reply's model calls took (reported by the model, else counted). */
  usage?: { inputTokens: number; outputTokens: number };
  completedAt?: Date;
}

export interface Message {
  _id: string;
  dialogueId: string;
  sessionId: string;
  /** Absent for messages outside any turn (e.g. a rejected input and its notice). */
  turnId?: string;
  senderRole: Role;
  senderId: string;
  contentType: ContentType;
  content: string;
  contentMeta?: ContentMeta;
  mentions: string[];
  replyTo?: string;
  visible: boolean;
  platformRef?: PlatformRef;
  delivery?: Delivery;
  /**
   * Set when ingest refused the message: its content (BR-001), or its sender (SPEC §14: not let
   * in, blocked, past a budget, moderation — `reason` says which). Kept for the record, never
   * answered, and out of every prompt, memory and summary (conversation.ts).
   */
  rejected?: { code: string; reason?: RefusalReason };
  /** When the platform says the message was sent (createdAt is when we received it). */
  sentAt?: Date;
  /** Earlier versions, oldest first; `content` is always the latest (edits open no turn). */
  edits?: MessageEdit[];
  /** Knowledge the reply validly cited as [n] (src/knowledge); only on AI replies that cited. */
  sources?: SourceReference[];
  /** Deleted on the platform: the record stays, the context leaves it out. */
  deleted?: { at: Date };
  createdAt: Date;
  updatedAt: Date;
}

/** A knowledge chunk a reply cited as [n] (seed 004's SourceReference, with where it came from). */
export interface SourceReference {
  n: number;
  documentId: string;
  documentName: string;
  chunkId: string;
  content: string;
  relevanceScore: number;
}

/** A message as the working window holds it: what prompts need, without search keys, edit history and cited sources. */
export type WindowEntry = Omit<Message, 'edits' | 'sources'>;

/**
 * The recent raw conversation of one session (MongoDB's subset pattern): a bounded copy of its
 * newest conversation messages, keyed by message id, so a prompt reads one document by `_id`
 * instead of querying messages. The messages collection stays the full record. Written only
 * under the dialogue's state guard (src/store/stateGuard.ts).
 */
export interface SessionWindow {
  /** The session's id. */
  _id: string;
  dialogueId: string;
  entries: Record<string, WindowEntry>;
  /** Older entries were trimmed: the window is complete only for messages created from here on. */
  trimmedBefore?: Date;
  /** A seeded session's predecessor messages, shown raw (SessionSeed.messageIds). */
  seed?: WindowEntry[];
  updatedAt: Date;
}

/** A message moved out of the live record (BR-002): the same document plus when it moved. */
export interface ArchivedMessage extends Message {
  archivedAt: Date;
}

export type EventKind =
  | 'context_built'
  | 'llm_call'
  | 'tool_call'
  | 'system_utterance'
  | 'warning'
  | 'delivery'
  /** A room's floor decision (SPEC §8): who was asked and why, a skip and its reason, a round's end. */
  | 'floor'
  /** The director's reading of a reply (seed 001): markers applied or refused, turns without progress. */
  | 'director'
  /** SPEC §14: a message or reply moderation flagged (or could not check): verdict, and the text for operators. */
  | 'moderation';

export interface EventLog {
  _id: string;
  kind: EventKind;
  dialogueId: string;
  sessionId?: string;
  turnId?: string;
  messageId?: string;
  at: Date;
  /** Kind-specific payload (full prompt, tokens, errors…); see src/trace for the shapes. */
  data: Record<string, unknown>;
}

export interface PlatformIdentity {
  platform: Platform;
  userId: string;
  username?: string;
  displayName?: string;
}

export interface Human {
  _id: string;
  identities: PlatformIdentity[];
  displayName: string;
  /**
   * This identity was linked to another person's (a Telegram account to a web user, SPEC §12):
   * that Human is who speaks from here on, with one memory across channels. Kept as a pointer
   * so the identity still resolves by its derived `_id`.
   */
  linkedTo?: string;
  /** Emotional tone carried across turns, updated after each reply (src/tone). */
  tone?: ToneState;
  /**
   * Persona-card history with each agent, by agent id, kept on the human (no query per turn);
   * an agent missing here is counted from the record on first touch.
   */
  visits?: Record<string, Visits>;
  /** An operator's word on who may talk (SPEC §14); absent: the deployment's access mode decides. */
  access?: AccessStanding;
  /** Tokens this person may cause per day, over `limits.person_daily_tokens` (SPEC §14). */
  dailyTokens?: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface Visits {
  /** Sessions of this human's dialogues with the agent. */
  count: number;
  /** The summary of the latest summarised session, when that session ended and where it was said. */
  lastTopic?: { text: string; at: Date; origin?: MemoryOrigin };
}

/** The platform account an agent speaks through (a Telegram bot, a Discord application). */
export interface AgentBinding {
  platform: Platform;
  userId: string;
  username?: string;
  /** Discord: post through a channel webhook under this name and avatar. */
  avatarUrl?: string;
}

/** An agent that runs outside the gateway and takes its seat in rooms (seed 002: IDE / non-IDE agents). */
export type ExternalAgent =
  /** Connects over MCP and waits for its turn (`wait_for_turn`). */
  | { kind: 'mcp'; seatId: string }
  /** Is sent a signed `agent_turn` event when it is asked. */
  | { kind: 'webhook'; seatId: string; url: string };

/** Seed 000's inner state: a mood (label, valence −1..1, arousal 0..1) and values weighted 0..1. */
export interface AgentInner {
  mood: { label: string; valence: number; arousal: number };
  values: Record<string, number>;
}

export interface Agent {
  _id: string;
  name: string;
  /** Set for agents that run outside the gateway: they answer through their seat, never through the model. */
  external?: ExternalAgent;
  /** Seed 002 `introduce`: how it presents itself to the room. */
  introduction?: string;
  /** Seed 002 `capabilities`: what an external agent says it can do (register_agent), shown to the room. */
  capabilities?: string[];
  /** Other names people call it by in a group ("named" activation). */
  aliases?: string[];
  bindings?: AgentBinding[];
  avatarUrl?: string;
  basePersona: string;
  /** The agent-wide part of its growth (character, moods, opinions, style): never facts about identifiable people. */
  evolvedPersona?: string;
  /** An evolved persona of an earlier version, held for an operator's review (never in a prompt). */
  heldPersona?: HeldPersona;
  /** When the evolved persona was last rewritten (base + old evolved + recent turns). */
  evolvedPersonaAt?: Date;
  /** Its mood and values as its last self-reflection left them (src/reflection); the reply's context carries them. */
  inner?: AgentInner;
  /** The operator's overrides of the deployment's reply model; each unset one is the deployment's (src/domain/agentModel.ts). */
  modelSettings?: AgentModelSettings;
  isDefault: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/** What an agent's replies are generated with, where it differs from the deployment. */
export interface AgentModelSettings {
  /** Model name as the LLM service knows it (LLM_MODEL otherwise). */
  name?: string;
  /** Sampling temperature 0–2 (otherwise none is sent: the service's own). */
  temperature?: number;
  /** Longest answer, in tokens (config `limits.max_reply_tokens` otherwise). */
  maxOutputTokens?: number;
}

/**
 * What an agent knows of its relationship with one person — shared experiences, running jokes,
 * what it learned about them — written from that person's private chats only and shown only
 * in their private chats (SPEC §13). `_id` derives from (agent, person).
 */
export interface RelationshipNote {
  _id: string;
  agentId: string;
  humanId: string;
  text: string;
  /** The private chats it was written from. */
  dialogueIds: string[];
  updatedAt: Date;
}

/**
 * An evolved persona written before the persona was split (it may hold what people told the
 * agent in private): kept out of every prompt until an operator adopts or discards it.
 */
export interface HeldPersona {
  text: string;
  heldAt: Date;
}

export const TONE_EMOTIONS = ['anxiety', 'excitement', 'confusion', 'trust', 'sadness', 'anger'] as const;
export type ToneEmotion = (typeof TONE_EMOTIONS)[number];

export interface ToneState {
  /** Decayed lexicon scores per emotion; the dominant one picks the guidance template. */
  scores: Record<ToneEmotion, number>;
  /** Template key of seed 003 (`high_anxiety`, `confusion`, `neutral`, …). */
  template: string;
  updatedAt: Date;
}

export const MEMORY_KINDS = ['event', 'fact', 'preference', 'summary', 'plot', 'reflection'] as const;
export type MemoryKind = (typeof MEMORY_KINDS)[number];
/** Superseded, merged and pruned entries are kept (never deleted) but no longer recalled. */
export type MemoryStatus = 'active' | 'superseded' | 'merged' | 'pruned';

/** Where a memory was learned (src/domain/memoryOrigin.ts): the chat, and whether it was private with its person. */
export interface MemoryOrigin {
  dialogueId: string;
  scope: 'private' | 'group';
}

/**
 * `origin`: recalled only where it was learned (the default); `shared`: an operator marked it
 * shareable, so it is recalled in every chat with its person.
 */
export const MEMORY_VISIBILITIES = ['origin', 'shared'] as const;
export type MemoryVisibility = (typeof MEMORY_VISIBILITIES)[number];

export interface MemoryEmbedding {
  /** Embedder id (model and dimensions); a vector from another embedder is recomputed. */
  model: string;
  /** Float32 little-endian. */
  vector: Uint8Array;
}

export interface MemoryEntry {
  _id: string;
  /** The agent that remembers. */
  ownerId: string;
  /** The human it is about; absent for the agent's own reflections. */
  subjectId?: string;
  kind: MemoryKind;
  text: string;
  /** Hash of owner, subject and normalised text: exact duplicates are stored once (unique index). */
  dedupeKey: string;
  embedding?: MemoryEmbedding;
  /** 0..1, from extraction; consolidation prunes low-value entries. */
  importance: number;
  sources: { dialogueId?: string; sessionId?: string; turnIds?: string[]; messageIds?: string[]; memoryIds?: string[] };
  /** Where it was learned; absent on entries of earlier versions (private to the person's private chats). */
  origin?: MemoryOrigin;
  /** Absent: `origin`. */
  visibility?: MemoryVisibility;
  /** When it happened in the conversation (the messages' own timestamps), not when it was extracted. */
  occurredAt: Date;
  status: MemoryStatus;
  supersededBy?: string;
  supersededAt?: Date;
  mergedInto?: string;
  recall: { count: number; lastAt?: Date };
  createdAt: Date;
  updatedAt: Date;
}
