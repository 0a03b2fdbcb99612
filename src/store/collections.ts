// Typed handles on every collection and the indexes they need. Only features both MongoDB ≥ 6
// and FerretDB 1.24 support (SPEC §3): no partial indexes, transactions or change streams.
import type { Collection, Db, Document, IndexDescription } from 'mongodb';
import type {
  Agent,
  ArchivedMessage,
  Dialogue,
  EventLog,
  Human,
  MemoryEntry,
  Message,
  RelationshipNote,
  Session,
  Turn,
} from '../domain/model.js';
import type { ConfigDocument } from './config.js';
import type { ConfigHistoryEntry } from './configHistory.js';
import type { StoredWindow } from './windowEntries.js';
import type { OutboxEntry } from './outbox.js';
import type { JournalSlot } from './searchJournal.js';
import type { PostingsDoc } from './searchPostings.js';
import type { SearchIndexState } from './searchIndexState.js';
import type { MemoryScopeMark } from './memoryScopes.js';
import type { MemorySnapshotDoc } from './memorySnapshots.js';
import type { Room, RoomRound } from '../domain/room.js';
import type { AgentBot } from './agentBots.js';
import type { Seat } from './seats.js';
import type { WebUser } from './webUsers.js';
import type { Invite } from '../domain/access.js';
import type { SpendDay } from '../domain/spend.js';
import type { Background, PlotState, StoryInstances } from '../domain/story.js';
import type { KnowledgeChunk, KnowledgeDocument, KnowledgeMark } from '../domain/knowledge.js';
import type {
  IntrospectionTurn,
  ReflectionAgentState,
  ReflectionRun,
  ReflectionScheduleIndex,
} from '../domain/reflection.js';

export interface MigrationDoc {
  _id: string;
  doneAt: Date;
}

export interface Collections {
  dialogues: Collection<Dialogue>;
  sessions: Collection<Session>;
  turns: Collection<Turn>;
  messages: Collection<Message>;
  archivedMessages: Collection<ArchivedMessage>;
  events: Collection<EventLog>;
  humans: Collection<Human>;
  agents: Collection<Agent>;
  memories: Collection<MemoryEntry>;
  /** An agent's note per person (read by derived `_id` on the hot path). */
  relationships: Collection<RelationshipNote>;
  config: Collection<ConfigDocument>;
  /** Who changed the config and what (bounded; written and pruned by `_id`). */
  configHistory: Collection<ConfigHistoryEntry>;
  /** Hot-path companions (SPEC §3 access rule): each read and written by `_id` only. */
  windows: Collection<StoredWindow>;
  outbox: Collection<OutboxEntry>;
  memoryScopes: Collection<MemoryScopeMark>;
  /** Memory index snapshots: heads and packed parts, read and written by `_id` only. */
  memorySnapshots: Collection<MemorySnapshotDoc>;
  migrations: Collection<MigrationDoc>;
  rooms: Collection<Room>;
  rounds: Collection<RoomRound>;
  agentBots: Collection<AgentBot>;
  seats: Collection<Seat>;
  webUsers: Collection<WebUser>;
  /** Invite codes (SPEC §14), keyed by the code: redeemed by `_id` under the invite's guard. */
  invites: Collection<Invite>;
  /** Each day's spend per person, chat, agent and the deployment (SPEC §14); written and checked by `_id`. */
  spend: Collection<SpendDay>;
  /** Seed 001: backgrounds (world setting + story outline) and each dialogue's plot state per background. */
  backgrounds: Collection<Background>;
  plots: Collection<PlotState>;
  /** The dialogues in which an agent follows a background (the director's other storylines). */
  storyInstances: Collection<StoryInstances>;
  /** Knowledge (seed 004 FR-004): an agent's documents, their chunks, and which agents have any. */
  knowledgeDocuments: Collection<KnowledgeDocument>;
  knowledgeChunks: Collection<KnowledgeChunk>;
  knowledgeMarks: Collection<KnowledgeMark>;
  /** Self-reflection (SPEC §9): runs, their introspection turns, and each agent's settings, values and mood. */
  reflections: Collection<ReflectionRun>;
  introspectionTurns: Collection<IntrospectionTurn>;
  reflectionAgents: Collection<ReflectionAgentState>;
  reflectionSchedule: Collection<ReflectionScheduleIndex>;
  /** Message search (src/search/): the journal of written messages, the postings, the index's state; all by `_id`. */
  searchJournal: Collection<JournalSlot>;
  searchPostings: Collection<PostingsDoc>;
  searchIndexState: Collection<SearchIndexState>;
}

export function collections(db: Db): Collections {
  return {
    dialogues: db.collection<Dialogue>('dialogues'),
    sessions: db.collection<Session>('sessions'),
    turns: db.collection<Turn>('turns'),
    messages: db.collection<Message>('messages'),
    archivedMessages: db.collection<ArchivedMessage>('archivedMessages'),
    events: db.collection<EventLog>('events'),
    humans: db.collection<Human>('humans'),
    agents: db.collection<Agent>('agents'),
    memories: db.collection<MemoryEntry>('memories'),
    relationships: db.collection<RelationshipNote>('relationships'),
    config: db.collection<ConfigDocument>('config'),
    configHistory: db.collection<ConfigHistoryEntry>('configHistory'),
    windows: db.collection<StoredWindow>('windows'),
    outbox: db.collection<OutboxEntry>('outbox'),
    memoryScopes: db.collection<MemoryScopeMark>('memoryScopes'),
    memorySnapshots: db.collection<MemorySnapshotDoc>('memorySnapshots'),
    migrations: db.collection<MigrationDoc>('migrations'),
    rooms: db.collection<Room>('rooms'),
    rounds: db.collection<RoomRound>('rounds'),
    agentBots: db.collection<AgentBot>('agentBots'),
    seats: db.collection<Seat>('seats'),
    webUsers: db.collection<WebUser>('webUsers'),
    invites: db.collection<Invite>('invites'),
    spend: db.collection<SpendDay>('spend'),
    backgrounds: db.collection<Background>('backgrounds'),
    plots: db.collection<PlotState>('plots'),
    storyInstances: db.collection<StoryInstances>('storyInstances'),
    knowledgeDocuments: db.collection<KnowledgeDocument>('knowledgeDocuments'),
    knowledgeChunks: db.collection<KnowledgeChunk>('knowledgeChunks'),
    knowledgeMarks: db.collection<KnowledgeMark>('knowledgeMarks'),
    reflections: db.collection<ReflectionRun>('reflections'),
    introspectionTurns: db.collection<IntrospectionTurn>('introspectionTurns'),
    reflectionAgents: db.collection<ReflectionAgentState>('reflectionAgents'),
    reflectionSchedule: db.collection<ReflectionScheduleIndex>('reflectionSchedule'),
    searchJournal: db.collection<JournalSlot>('searchJournal'),
    searchPostings: db.collection<PostingsDoc>('searchPostings'),
    searchIndexState: db.collection<SearchIndexState>('searchIndexState'),
  };
}

const INDEXES: { [K in keyof Collections]: IndexDescription[] } = {
  dialogues: [
    // One dialogue per chat, and per agent in a private chat (ChatRef.bot, ChatRef.agentId).
    {
      key: { 'chat.platform': 1, 'chat.chatId': 1, 'chat.threadId': 1, 'chat.bot': 1, 'chat.agentId': 1 },
      name: 'chat_agent_unique',
      unique: true,
    },
    { key: { lastActivityAt: -1, _id: -1 }, name: 'recent' },
    { key: { humanIds: 1 }, name: 'humans' },
    { key: { agentIds: 1 }, name: 'agents' },
  ],
  sessions: [
    { key: { dialogueId: 1, startedAt: 1, _id: 1 }, name: 'by_dialogue' },
    { key: { startedAt: 1, _id: 1 }, name: 'by_time' },
  ],
  turns: [
    { key: { sessionId: 1, startedAt: 1, _id: 1 }, name: 'by_session' },
    { key: { dialogueId: 1, status: 1, startedAt: 1 }, name: 'by_dialogue_status' },
    // API stats over a time window (counts, reply latency percentiles).
    { key: { startedAt: 1, _id: 1 }, name: 'by_time' },
  ],
  messages: [
    // Redelivered platform updates hit this and never create a second message. Sparse:
    // messages the gateway authored have no inbound platform reference.
    {
      key: { 'platformRef.platform': 1, 'platformRef.chatId': 1, 'platformRef.bot': 1, 'platformRef.messageId': 1 },
      name: 'platform_ref_bot_unique',
      unique: true,
      sparse: true,
    },
    { key: { turnId: 1, createdAt: 1, _id: 1 }, name: 'by_turn' },
    { key: { sessionId: 1, createdAt: 1, _id: 1 }, name: 'by_session' },
    { key: { dialogueId: 1, createdAt: 1, _id: 1 }, name: 'by_dialogue' },
    { key: { createdAt: 1, _id: 1 }, name: 'by_time' },
  ],
  // BR-002: messages moved out of the live record, keyed by the same _id (copy is an upsert).
  archivedMessages: [
    { key: { dialogueId: 1, createdAt: 1, _id: 1 }, name: 'by_dialogue' },
    { key: { sessionId: 1, createdAt: 1, _id: 1 }, name: 'by_session' },
  ],
  events: [
    { key: { turnId: 1, at: 1, _id: 1 }, name: 'by_turn' },
    { key: { dialogueId: 1, at: 1 }, name: 'by_dialogue' },
    // API: warnings, token sums of llm_call events over a window.
    { key: { kind: 1, at: 1, _id: 1 }, name: 'by_kind' },
  ],
  humans: [
    { key: { 'identities.platform': 1, 'identities.userId': 1 }, name: 'identity' },
    { key: { createdAt: 1, _id: 1 }, name: 'by_time' },
  ],
  agents: [{ key: { isDefault: 1 }, name: 'default' }],
  memories: [
    // Exact duplicates are stored once: the key hashes owner, subject and normalised text.
    { key: { dedupeKey: 1 }, name: 'dedupe_unique', unique: true },
    { key: { ownerId: 1, subjectId: 1, status: 1, updatedAt: 1 }, name: 'by_owner' },
    { key: { 'sources.dialogueId': 1 }, name: 'by_dialogue' },
  ],
  // The API lists an agent's notes; deleting a person deletes theirs.
  relationships: [
    { key: { agentId: 1, updatedAt: -1 }, name: 'notes_by_agent' },
    { key: { humanId: 1 }, name: 'notes_by_human' },
  ],
  config: [],
  configHistory: [],
  // BR-006 removes a dialogue's windows and outbox entries with it.
  windows: [{ key: { dialogueId: 1 }, name: 'by_dialogue' }],
  outbox: [{ key: { dialogueId: 1 }, name: 'by_dialogue' }],
  memoryScopes: [],
  memorySnapshots: [],
  migrations: [],
  rooms: [],
  // Rounds are read by derived id; the API lists a room's rounds by its dialogue.
  rounds: [{ key: { dialogueId: 1, seq: 1 }, name: 'rounds_by_dialogue' }],
  agentBots: [{ key: { platform: 1 }, name: 'agent_bots_by_platform' }],
  seats: [],
  webUsers: [],
  invites: [],
  // The console lists a day's spend (off the hot path, which reads by `_id`).
  spend: [{ key: { day: 1, scope: 1 }, name: 'spend_by_day' }],
  backgrounds: [],
  plots: [],
  storyInstances: [],
  // The API lists an agent's documents; a process loads an agent's chunks in order; deleting a
  // document deletes its chunks.
  knowledgeDocuments: [{ key: { agentId: 1, createdAt: -1, _id: -1 }, name: 'documents_by_agent' }],
  knowledgeChunks: [
    { key: { agentId: 1, documentId: 1, index: 1 }, name: 'chunks_by_agent' },
    { key: { documentId: 1, index: 1 }, name: 'chunks_by_document' },
  ],
  knowledgeMarks: [],
  // The API lists an agent's runs newest first; a new run finds the agent's unfinished ones.
  reflections: [
    { key: { agentId: 1, queuedAt: -1, _id: -1 }, name: 'reflections_by_agent' },
    { key: { agentId: 1, status: 1 }, name: 'reflections_by_status' },
    // API stats: the runs' token use over a window.
    { key: { startedAt: 1 }, name: 'reflections_by_time' },
  ],
  introspectionTurns: [{ key: { reflectionId: 1, seq: 1 }, name: 'turns_by_reflection' }],
  // Read by `_id` only: the tick finds the agents whose schedule is on in `reflectionSchedule`.
  reflectionAgents: [],
  reflectionSchedule: [],
  // Read and written by `_id` only.
  searchJournal: [],
  searchPostings: [],
  searchIndexState: [],
};

/**
 * Which of the indexes a server keeps: all of them, or only the unique ones (for what they
 * enforce) on a server that never reads a secondary index — FerretDB's sqlite handler scans for
 * every filter but `_id`, yet rewrites each index on every write (a fifth of a message insert).
 */
export type IndexUse = 'all' | 'unique';

/** The server's answer to `explain` of a find on a field other than `_id`: FerretDB says whether it pushed the filter down. */
export const indexUseOf = (explain: Document): IndexUse => (explain.filterPushdown === false ? 'unique' : 'all');

/** Asks the server (any failure: all indexes, as on MongoDB). */
export async function probeIndexUse(db: Db): Promise<IndexUse> {
  const explain = await db
    .command({ explain: { find: 'migrations', filter: { indexProbe: 'x' } } })
    .catch((): Document => ({}));
  return indexUseOf(explain);
}

/** A collection's indexes on a server of this kind. */
export const indexesFor = (name: keyof Collections, use: IndexUse): IndexDescription[] =>
  INDEXES[name].filter((spec) => use === 'all' || spec.unique === true);

/**
 * Indexes an earlier version made that a newer one replaced: dropped first, since the old
 * unique keys would refuse what the new ones allow (several dialogues of one private chat).
 */
const RETIRED: Partial<Record<keyof Collections, string[]>> = {
  dialogues: ['chat_unique'],
  messages: ['platform_ref_unique'],
};

/**
 * Creates the indexes a collection lacks, and drops the ones of ours the server would not use
 * or that were replaced (kept by an earlier version). Only missing ones are sent: FerretDB 1.24 panics on a
 * createIndexes that repeats an existing compound index, and it saves a round trip on MongoDB.
 */
export async function ensureIndexes(db: Db, c: Collections, use: IndexUse = 'all'): Promise<void> {
  await Promise.all(
    (Object.keys(INDEXES) as Array<keyof Collections>).map(async (name) => {
      const listed = await c[name]
        .listIndexes()
        .toArray()
        .catch((err: unknown) => {
          if (isNamespaceNotFound(err)) return undefined;
          throw err;
        });
      const existing = new Set(listed?.map((i: { name?: string }) => i.name));
      const wanted = indexesFor(name, use);
      const unused = [
        ...(RETIRED[name] ?? []).filter((n) => existing.has(n)),
        ...INDEXES[name].flatMap((s) => (s.name && existing.has(s.name) && !wanted.includes(s) ? [s.name] : [])),
      ];
      for (const index of unused) await c[name].dropIndex(index);
      const missing = wanted.filter((spec) => !existing.has(spec.name));
      if (missing.length > 0)
        await c[name].createIndexes(missing); // a new collection too
      else if (!listed && INDEXES[name].length > 0) await createCollection(db, name);
    }),
  );
}

/** A new collection, made before any write as its indexes would have made it (two first inserts never race to). */
async function createCollection(db: Db, name: string): Promise<void> {
  await db.createCollection(name).catch((err: unknown) => {
    if (!hasCode(err, 48)) throw err; // NamespaceExists: another process made it
  });
}

/** A server error with this code. */
const hasCode = (err: unknown, code: number): boolean =>
  typeof err === 'object' && err !== null && 'code' in err && err.code === code;

const isNamespaceNotFound = (err: unknown): boolean => hasCode(err, 26);

/** MongoDB's duplicate-key error, the signal of an idempotent write that already happened. */
export function isDuplicateKey(err: unknown): boolean {
  return hasCode(err, 11000);
}
