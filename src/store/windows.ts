// The working windows (SessionWindow): one document per session, read by `_id` on every turn.
// Every write runs under the dialogue's state guard, because FerretDB rewrites whole documents
// and two unguarded writers of one window could lose each other's entries.
import type { Collections } from './collections.js';
import { isDuplicateKey } from './collections.js';
import type { Message, SessionWindow, WindowEntry } from '../domain/model.js';
import { belongsInWindow, toWindowEntry, trimPlan } from '../domain/windowRules.js';
import { guardKeys, type StateGuard } from './stateGuard.js';
import { packEntry, packWindow, unpackWindow } from './windowEntries.js';

/** `entries.<id>`: ids are ours (letters, digits, `_`), never a path separator or operator. */
const entryPath = (messageId: string): string => {
  if (!/^[\w-]+$/.test(messageId)) throw new Error(`message id ${messageId} cannot key a window entry`);
  return `entries.${messageId}`;
};

/** The `_id` of a closed session's tail (`tailOf`), beside its window in the same collection. */
export const tailIdOf = (sessionId: string): string => `${sessionId}~tail`;

export class WindowRepo {
  constructor(
    private readonly c: Collections,
    private readonly guard: StateGuard,
  ) {}

  async get(sessionId: string): Promise<SessionWindow | null> {
    const stored = await this.c.windows.findOne({ _id: sessionId });
    return stored ? unpackWindow(stored) : null;
  }

  /**
   * The window of a new session: empty, or seeded with its predecessor's last turns, or holding
   * its first entries. Returns it as stored; undefined when one was there already (a retry).
   */
  async create(
    session: { _id: string; dialogueId: string },
    at: Date,
    o: { seed?: WindowEntry[]; entries?: Record<string, WindowEntry> } = {},
  ): Promise<SessionWindow | undefined> {
    const { seed, entries = {} } = o;
    const base: SessionWindow = { _id: session._id, dialogueId: session.dialogueId, entries, updatedAt: at };
    const w = seed?.length ? { ...base, seed } : base;
    try {
      await this.c.windows.insertOne(packWindow(w));
      return w;
    } catch (err) {
      if (!isDuplicateKey(err)) throw err; // a retry: the window is there
      return undefined;
    }
  }

  /**
   * Adds or replaces a message's entry (a message that left the conversation leaves the window).
   * No upsert: a session without a window is an old one, rebuilt from the record on its next read.
   */
  async put(m: Message | WindowEntry, at: Date): Promise<void> {
    await this.guard.run(guardKeys.dialogue(m.dialogueId), () => this.write(m.sessionId, m, at));
  }

  private async write(docId: string, m: Message | WindowEntry, at: Date): Promise<void> {
    const path = entryPath(m._id);
    const unset: Record<string, ''> = { [path]: '' };
    await this.c.windows.updateOne(
      { _id: docId },
      belongsInWindow(m)
        ? { $set: { [path]: packEntry(toWindowEntry(m)), updatedAt: at } }
        : { $unset: unset, $set: { updatedAt: at } },
    );
  }

  /** Mirrors a changed message (edit, delete, album item, media result) if its window or its session's tail holds it. */
  async refresh(m: Message, at: Date): Promise<void> {
    await this.guard.run(guardKeys.dialogue(m.dialogueId), async () => {
      const [w, tail] = await Promise.all([this.get(m.sessionId), this.get(tailIdOf(m.sessionId))]);
      if (w?.entries[m._id]) await this.write(m.sessionId, m, at);
      if (tail?.entries[m._id]) await this.write(tailIdOf(m.sessionId), m, at);
    });
  }

  /**
   * A closed session's tail: its last turns, picked from its window under the dialogue's guard
   * and stored once beside it, so the next session's prompts read a few entries instead of the
   * whole window (edits and deletes reach it through `refresh`). Returns the tail.
   */
  async tailOf(
    session: { _id: string; dialogueId: string },
    pick: (w: SessionWindow) => WindowEntry[],
    at: Date,
  ): Promise<SessionWindow | null> {
    const stored = await this.get(tailIdOf(session._id));
    if (stored) return stored;
    return this.guard.run(guardKeys.dialogue(session.dialogueId), async () => {
      const w = await this.get(session._id);
      if (!w) return null;
      const entries = Object.fromEntries(pick(w).map((e) => [e._id, e]));
      const tail = { _id: tailIdOf(session._id), dialogueId: session.dialogueId };
      return (await this.create(tail, at, { entries })) ?? (await this.get(tail._id));
    });
  }

  /** Keeps the window bounded (WINDOW_KEEP newest entries); a no-op below the trim size. */
  async trim(w: SessionWindow, at: Date): Promise<void> {
    const plan = trimPlan(w);
    if (!plan) return;
    await this.guard.run(guardKeys.dialogue(w.dialogueId), async () => {
      const unset: Record<string, ''> = Object.fromEntries(plan.drop.map((id) => [entryPath(id), '' as const]));
      await this.c.windows.updateOne(
        { _id: w._id },
        { $unset: unset, $set: { trimmedBefore: plan.trimmedBefore, updatedAt: at } },
      );
    });
  }

  /** Stores a window rebuilt from the record (an old session's first touch); keeps one written meanwhile. */
  async insertRebuilt(w: SessionWindow): Promise<SessionWindow> {
    try {
      await this.c.windows.insertOne(packWindow(w));
      return w;
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      return (await this.get(w._id)) ?? w;
    }
  }
}
