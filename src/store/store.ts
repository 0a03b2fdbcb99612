// The conversation store: one MongoDB database, one repository per collection.
import { MongoClient, type Db } from 'mongodb';
import { collections, ensureIndexes, type Collections } from './collections.js';
import { DialogueRepo } from './dialogues.js';
import { SessionRepo } from './sessions.js';
import { TurnRepo } from './turns.js';
import { MessageRepo } from './messages.js';
import { EventRepo } from './events.js';
import { ParticipantRepo } from './participants.js';
import { ArchiveRepo } from './archive.js';
import { AttachmentRepo } from './attachments.js';
import { MemoryRepo } from './memories.js';
import { ConfigRepo } from './config.js';
import { guardedFeed, silentFeed, type ChangeFeed } from '../feed/changeFeed.js';

export class Store {
  readonly c: Collections;
  readonly dialogues: DialogueRepo;
  readonly sessions: SessionRepo;
  readonly turns: TurnRepo;
  readonly messages: MessageRepo;
  readonly events: EventRepo;
  readonly participants: ParticipantRepo;
  readonly archive: ArchiveRepo;
  readonly attachments: AttachmentRepo;
  readonly memories: MemoryRepo;
  readonly config: ConfigRepo;

  private constructor(
    readonly client: MongoClient,
    readonly db: Db,
    feed: ChangeFeed,
  ) {
    this.c = collections(db);
    this.dialogues = new DialogueRepo(this.c);
    this.sessions = new SessionRepo(this.c);
    // Repositories whose records have live subscribers announce their writes on the feed.
    // A publish that throws loses a live update, never the write that announced it.
    const announce = guardedFeed(feed);
    this.turns = new TurnRepo(this.c, announce);
    this.messages = new MessageRepo(this.c, announce);
    this.events = new EventRepo(this.c, announce);
    this.participants = new ParticipantRepo(this.c);
    this.archive = new ArchiveRepo(this.c);
    this.attachments = new AttachmentRepo(this.c);
    this.memories = new MemoryRepo(this.c.memories);
    this.config = new ConfigRepo(this.c.config);
  }

  static async connect(uri: string, dbName: string, o: { feed?: ChangeFeed } = {}): Promise<Store> {
    const client = new MongoClient(uri, { serverSelectionTimeoutMS: 10_000, appName: 'rainbow-gateway' });
    await client.connect();
    const store = new Store(client, client.db(dbName), o.feed ?? silentFeed);
    await ensureIndexes(store.c);
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
