// The conversation store: one MongoDB database, one repository per collection.
import { MongoClient, type Db } from 'mongodb';
import { collections, ensureIndexes, probeIndexUse, type Collections } from './collections.js';
import { DialogueRepo } from './dialogues.js';
import { SessionRepo } from './sessions.js';
import { TurnRepo } from './turns.js';
import { MessageRepo } from './messages.js';
import { SearchJournalRepo } from './searchJournal.js';
import { SearchPostingsRepo } from './searchPostings.js';
import { SearchIndexStateRepo } from './searchIndexState.js';
import { SearchReadsRepo } from './searchReads.js';
import { EventRepo } from './events.js';
import { ParticipantRepo } from './participants.js';
import { ArchiveRepo } from './archive.js';
import { AttachmentRepo } from './attachments.js';
import { RelationshipRepo } from './relationships.js';
import { MemoryRepo } from './memories.js';
import { ConfigRepo } from './config.js';
import { ConfigHistoryRepo } from './configHistory.js';
import type { WriteMark } from './markedCache.js';
import { RoomRepo } from './rooms.js';
import { AgentBotRepo } from './agentBots.js';
import { SeatRepo } from './seats.js';
import { WebUserRepo } from './webUsers.js';
import { AccessRepo } from './access.js';
import { SpendRepo } from './spend.js';
import { StoryRepo } from './stories.js';
import { KnowledgeRepo } from './knowledge.js';
import { ReflectionRepo } from './reflections.js';
import { guardedFeed, silentFeed, type ChangeFeed } from '../feed/changeFeed.js';
import { WindowRepo } from './windows.js';
import { OutboxRepo } from './outbox.js';
import { MigrationRepo } from './migrations.js';
import { MemoryScopeRepo } from './memoryScopes.js';
import { MemorySnapshotRepo } from './memorySnapshots.js';
import { SessionHistory } from './sessionHistory.js';
import { LocalStateGuard, type StateGuard } from './stateGuard.js';
import { ReplyHandoff } from './replyHandoff.js';
import { PageReader } from './pages.js';
import { StatsReader } from './stats.js';
import { HealthReads } from './healthReads.js';
import type { Logger } from 'pino';

export interface StoreOptions {
  /** Where writes are announced (the API's live updates); none by default. */
  feed?: ChangeFeed;
  /** The state guard shared by every process (RedisStateGuard); one process only by default. */
  guard?: StateGuard;
  /** Shared marks of config and agent writes (RedisWriteMark): each is read again only when its mark moved. */
  configMark?: WriteMark;
  agentMark?: WriteMark;
  log?: Logger;
  /** Told how long each command took (the driver's command monitoring; none by default). */
  onCommand?: (command: string, ms: number) => void;
}

export class Store {
  readonly c: Collections;
  readonly dialogues: DialogueRepo;
  readonly sessions: SessionRepo;
  readonly turns: TurnRepo;
  readonly messages: MessageRepo;
  /** Message search's own index (src/search/): journal, postings and state, all by `_id`. */
  readonly searchJournal: SearchJournalRepo;
  readonly searchPostings: SearchPostingsRepo;
  readonly searchState: SearchIndexStateRepo;
  readonly searchReads: SearchReadsRepo;
  readonly events: EventRepo;
  readonly participants: ParticipantRepo;
  readonly archive: ArchiveRepo;
  readonly attachments: AttachmentRepo;
  readonly memories: MemoryRepo;
  /** Agents' notes on each person, shown only in that person's private chats (SPEC §13). */
  readonly relationships: RelationshipRepo;
  readonly config: ConfigRepo;
  readonly configHistory: ConfigHistoryRepo;
  readonly windows: WindowRepo;
  readonly history: SessionHistory;
  readonly outbox: OutboxRepo;
  readonly migrations: MigrationRepo;
  readonly memoryScopes: MemoryScopeRepo;
  /** Snapshots of the per-process memory indexes (a cold load by `_id`). */
  readonly memorySnapshots: MemorySnapshotRepo;
  /** Rooms and their rounds (SPEC §8). */
  readonly rooms: RoomRepo;
  /** The agents' own platform accounts and their tokens (secrets). */
  readonly agentBots: AgentBotRepo;
  /** External agents' seats in rooms (bearer tokens, hashed). */
  readonly seats: SeatRepo;
  /** People of the web channel and their bearer tokens (hashed). */
  readonly webUsers: WebUserRepo;
  /** Invites and the operator's word on people and chats (SPEC §14). */
  readonly access: AccessRepo;
  /** Each day's spend per person, chat, agent and deployment (SPEC §14). */
  readonly spend: SpendRepo;
  /** Backgrounds and plot states (seed 001). */
  readonly stories: StoryRepo;
  /** Agents' knowledge documents and their chunks (seed 004 FR-004). */
  readonly knowledge: KnowledgeRepo;
  /** Self-reflection runs, their introspection turns, agents' reflection settings, values and mood. */
  readonly reflections: ReflectionRepo;
  /** The operator API's list pages and batched reads (off the hot path). */
  readonly pages: PageReader;
  readonly stats: StatsReader;
  /** The health page's bounded reads of recent calls, deliveries and unanswered turns. */
  readonly health: HealthReads;
  /** Every state transition of the hot path is decided under this (SPEC §3 access rule). */
  readonly guard: StateGuard;
  /** A new chat's documents as ingest wrote them, for the start of its reply in this process. */
  readonly handoff = new ReplyHandoff();

  private constructor(
    readonly client: MongoClient,
    readonly db: Db,
    o: StoreOptions,
  ) {
    this.c = collections(db);
    this.guard = o.guard ?? new LocalStateGuard();
    this.migrations = new MigrationRepo(this.c);
    this.outbox = new OutboxRepo(this.c, this.migrations);
    this.windows = new WindowRepo(this.c, this.guard);
    this.memoryScopes = new MemoryScopeRepo(this.c, this.migrations);
    this.memorySnapshots = new MemorySnapshotRepo(this.c);
    this.dialogues = new DialogueRepo(this.c, this.guard);
    this.sessions = new SessionRepo(this.c, this.windows, this.guard);
    // Repositories whose records have live subscribers announce their writes on the feed.
    // A publish that throws loses a live update, never the write that announced it.
    const announce = guardedFeed(o.feed ?? silentFeed);
    this.turns = new TurnRepo(this.c, this.guard, announce);
    this.searchJournal = new SearchJournalRepo(this.c, this.guard);
    this.searchPostings = new SearchPostingsRepo(this.c);
    this.searchState = new SearchIndexStateRepo(this.c);
    this.searchReads = new SearchReadsRepo(this.c);
    this.messages = new MessageRepo(this.c, this.windows, this.outbox, this.guard, this.searchJournal, announce);
    this.history = new SessionHistory(this.windows, this.messages, this.guard, o.log);
    this.events = new EventRepo(this.c, announce);
    this.participants = new ParticipantRepo(this.c, this.guard, o.agentMark);
    this.archive = new ArchiveRepo(this.c);
    this.attachments = new AttachmentRepo(this.c, this.messages, this.guard);
    this.memories = new MemoryRepo(this.c.memories, this.memoryScopes, this.guard, this.memorySnapshots);
    this.relationships = new RelationshipRepo(this.c);
    this.configHistory = new ConfigHistoryRepo(this.c.configHistory);
    this.config = new ConfigRepo(this.c.config, o.configMark, undefined, this.configHistory);
    this.rooms = new RoomRepo(this.c);
    this.agentBots = new AgentBotRepo(this.c);
    this.seats = new SeatRepo(this.c);
    this.webUsers = new WebUserRepo(this.c);
    this.access = new AccessRepo(this.c, this.guard);
    this.spend = new SpendRepo(this.c);
    this.stories = new StoryRepo(this.c, this.guard);
    this.knowledge = new KnowledgeRepo(this.c);
    this.reflections = new ReflectionRepo(this.c, announce, this.guard, () => this.participants.agentsWritten());
    this.pages = new PageReader(this.c);
    this.stats = new StatsReader(this.c);
    this.health = new HealthReads(this.c);
  }

  /** `monitorCommands` in the URI (`?monitorCommands=true`) lets tests and the bench watch every command. */
  static async connect(uri: string, dbName: string, o: StoreOptions = {}): Promise<Store> {
    const monitor = o.onCommand;
    const client = new MongoClient(uri, {
      serverSelectionTimeoutMS: 10_000,
      appName: 'rainbow-gateway',
      ...(monitor ? { monitorCommands: true } : {}),
    });
    if (monitor) {
      client.on('commandSucceeded', (e) => monitor(e.commandName, e.duration));
      client.on('commandFailed', (e) => monitor(e.commandName, e.duration));
    }
    await client.connect();
    const store = new Store(client, client.db(dbName), o);
    const use = await probeIndexUse(store.db);
    if (use === 'unique')
      o.log?.info('the store reads by scanning for every filter but _id: only its unique indexes are kept');
    await ensureIndexes(store.db, store.c, use);
    return store;
  }

  async ping(): Promise<boolean> {
    try {
      await this.db.command({ ping: 1 });
      return true;
    } catch {
      return false;
    }
  }

  close(): Promise<void> {
    return this.client.close();
  }
}
