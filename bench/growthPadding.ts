// Fills a fresh database with `messages` messages' worth of history cloned from the template turn
// (growthDocs.ts), straight through the driver: insertMany batches of ≤ 1000, unordered, every
// collection writing at once (one batch in flight each, the next one built meanwhile).
import {
  MongoBulkWriteError,
  type Collection,
  type Document,
  type OptionalUnlessRequiredId,
  type WriteError,
} from 'mongodb';
import type { Collections } from '../src/store/collections.js';
import { isDuplicateKey } from '../src/store/collections.js';
import { sleep } from './concurrency.js';
import { PadLayout } from './growthLayout.js';
import { PadDocs } from './growthDocs.js';
import type { TurnTemplates } from './growthTemplates.js';
import type { Message } from '../src/domain/model.js';

const BATCH = 1000;
const ATTEMPTS = 5;
const PROGRESS_EVERY_MS = 10_000;

export interface PadResult {
  layout: PadLayout;
  /** Documents inserted, per collection. */
  inserted: Record<string, number>;
  seconds: number;
  /** Mean size of a padded context_built event's data, bytes of JSON. */
  contextEventBytes: number;
}

/** Inserts `docs`, retrying the ones that failed for another reason than already being there (e.g. SQLITE_BUSY). */
async function insertBatch<T extends Document>(
  coll: Collection<T>,
  docs: OptionalUnlessRequiredId<T>[],
): Promise<void> {
  let pending = docs;
  for (let attempt = 1; pending.length > 0; attempt++) {
    try {
      await coll.insertMany(pending, { ordered: false });
      return;
    } catch (err) {
      if (attempt >= ATTEMPTS) throw err;
      if (!(err instanceof MongoBulkWriteError)) {
        await sleep(200 * attempt); // the whole command failed: send it again (duplicates are skipped below)
        continue;
      }
      const errors = ([] as WriteError[]).concat(err.writeErrors);
      const failed = new Set(errors.filter((e) => !isDuplicateKey(e)).map((e) => e.index));
      pending = pending.filter((_, i) => failed.has(i));
      await sleep(200 * attempt);
    }
  }
}

/** Collects one collection's documents into batches; one insert in flight while the next batch fills. */
class BatchSink<T extends Document> {
  private buffer: OptionalUnlessRequiredId<T>[] = [];
  private inFlight: Promise<void> = Promise.resolve();
  private failure: Error | undefined;
  inserted = 0;

  constructor(private readonly coll: Collection<T>) {}

  async add(doc: OptionalUnlessRequiredId<T>): Promise<void> {
    this.buffer.push(doc);
    if (this.buffer.length >= BATCH) await this.flush();
  }

  private async flush(): Promise<void> {
    await this.inFlight;
    if (this.failure !== undefined) throw this.failure;
    const docs = this.buffer;
    this.buffer = [];
    if (docs.length === 0) return;
    // Caught here and rethrown by the next flush, so a failure never goes unhandled meanwhile.
    this.inFlight = insertBatch(this.coll, docs).then(
      () => void (this.inserted += docs.length),
      (err: unknown) => void (this.failure = err instanceof Error ? err : new Error(String(err))),
    );
  }

  async drain(): Promise<void> {
    await this.flush();
    await this.inFlight;
    if (this.failure !== undefined) throw this.failure;
  }
}

export async function padStore(
  c: Collections,
  templates: TurnTemplates,
  messages: number,
  progress: (line: string) => void,
): Promise<PadResult> {
  const began = performance.now();
  const layout = new PadLayout(messages, templates.turn.startedAt.getTime());
  const docs = new PadDocs(templates, layout);
  const sinks = {
    dialogues: new BatchSink(c.dialogues),
    humans: new BatchSink(c.humans),
    sessions: new BatchSink(c.sessions),
    turns: new BatchSink(c.turns),
    messages: new BatchSink(c.messages),
    events: new BatchSink(c.events),
    memories: new BatchSink(c.memories),
    // The hot path's companions of the record, as the app keeps them (src/store/).
    windows: new BatchSink(c.windows),
    outbox: new BatchSink(c.outbox),
    memoryScopes: new BatchSink(c.memoryScopes),
  };
  let contextBytes = 0;
  let contextEvents = 0;
  let lastReport = performance.now();

  for (let d = 0; d < layout.dialogues; d++) {
    const { dialogue, human } = docs.dialogueAndHuman(d);
    await sinks.dialogues.add(dialogue);
    await sinks.humans.add(human);
  }
  for (let s = 0; s < layout.sessions; s++) await sinks.sessions.add(docs.session(s));
  for (const mark of docs.memoryScopeMarks()) await sinks.memoryScopes.add(mark);
  let sessionMessages: Message[] = [];
  for (let k = 0; k < layout.turns; k++) {
    const t = docs.turn(k);
    await sinks.turns.add(t.turn);
    for (const m of t.messages) await sinks.messages.add(m);
    for (const o of docs.outboxOf(k, t.messages)) await sinks.outbox.add(o);
    sessionMessages.push(...t.messages);
    if (k === layout.turns - 1 || layout.sessionOf(k + 1) !== layout.sessionOf(k)) {
      await sinks.windows.add(docs.window(layout.sessionOf(k), sessionMessages));
      sessionMessages = [];
    }
    for (const e of t.events) {
      if (e.kind === 'context_built' && k % 100 === 0) {
        contextBytes += Buffer.byteLength(JSON.stringify(e.data));
        contextEvents++;
      }
      await sinks.events.add(e);
    }
    if (t.memory) await sinks.memories.add(t.memory);
    if (performance.now() - lastReport > PROGRESS_EVERY_MS) {
      lastReport = performance.now();
      progress(`growth: padding ${k}/${layout.turns} turns, ${((lastReport - began) / 1000).toFixed(0)} s`);
    }
  }
  await Promise.all(Object.values(sinks).map((s) => s.drain()));
  const inserted = Object.fromEntries(Object.entries(sinks).map(([name, s]) => [name, s.inserted]));
  return {
    layout,
    inserted,
    seconds: (performance.now() - began) / 1000,
    contextEventBytes: contextEvents > 0 ? contextBytes / contextEvents : NaN,
  };
}
