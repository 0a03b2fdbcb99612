// The working window against the real MongoDB-wire server: messages stored through the
// repository enter their session's window; edits, deletes and media results reach it; it stays
// bounded; and a read reaching past what it keeps goes to the record instead of losing messages.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Binary } from 'mongodb';
import { Store } from '../../src/store/store.js';
import { WINDOW_KEEP, WINDOW_TRIM_AT } from '../../src/domain/windowRules.js';
import type { Message, Session } from '../../src/domain/model.js';

const T0 = Date.UTC(2026, 0, 1, 9);
let store: Store;
let session: Session;

beforeAll(async () => {
  store = await Store.connect(inject('mongoUri'), `test_${randomBytes(4).toString('hex')}`);
  session = await store.sessions.open('dlg_window', 'dialogue', new Date(T0));
});
afterAll(async () => {
  await store.db.dropDatabase();
  await store.close();
});

const message = (i: number, extra: Partial<Message> = {}): Message => ({
  _id: `msg_w${String(i).padStart(4, '0')}`,
  dialogueId: 'dlg_window',
  sessionId: session._id,
  senderRole: i % 2 === 0 ? 'human' : 'ai',
  senderId: i % 2 === 0 ? 'hum_1' : 'agt_default',
  contentType: 'text',
  content: `message ${i}`,
  mentions: [],
  visible: true,
  ...(i % 2 === 0 ? {} : { delivery: { state: 'complete' as const, platformMessageIds: [] } }),
  createdAt: new Date(T0 + i * 1000),
  updatedAt: new Date(T0 + i * 1000),
  ...extra,
});
const contents = async (since?: Date) => {
  const r = await store.history.since(session, since);
  return { source: r.source, contents: r.messages.map((m) => m.content) };
};

describe('the working window', () => {
  it('follows edits, deletes and commands of the messages it holds', async () => {
    for (let i = 0; i < 4; i++) await store.messages.insertOnce(message(i));
    await store.messages.insertOnce(message(4, { contentType: 'command', content: '/help' }));
    await store.messages.applyEdit(message(0), 'message 0, edited', new Date(T0 + 10_000));
    await store.messages.markDeleted(message(2), new Date(T0 + 11_000));
    expect(await contents()).toEqual({ source: 'window', contents: ['message 0, edited', 'message 1', 'message 3'] });
  });

  it('stays bounded, and reads past what it keeps from the record', async () => {
    const total = WINDOW_TRIM_AT + 10;
    for (let i = 5; i < total; i++) await store.messages.insertOnce(message(i));
    const w = (await store.windows.get(session._id))!;
    await store.windows.trim(w, new Date());
    const trimmed = (await store.windows.get(session._id))!;
    expect(Object.keys(trimmed.entries)).toHaveLength(WINDOW_KEEP);
    const firstKept = total - WINDOW_KEEP;
    expect(trimmed.trimmedBefore).toEqual(new Date(T0 + firstKept * 1000));

    // Within what the window keeps: one document. Further back: the record, nothing lost.
    const recent = await contents(new Date(T0 + (total - 5) * 1000));
    expect(recent).toEqual({
      source: 'window',
      contents: [total - 5, total - 4, total - 3, total - 2, total - 1].map((i) => `message ${i}`),
    });
    const whole = await contents();
    expect(whole.source).toBe('record');
    expect(whole.contents).toHaveLength(total - 2); // all but the command and the deleted message
  });

  it('is rebuilt from the record for a session that has none (written by an earlier version)', async () => {
    await store.c.windows.deleteOne({ _id: session._id });
    const rebuilt = await contents(new Date(T0 + (WINDOW_TRIM_AT + 5) * 1000));
    expect(rebuilt.source).toBe('window');
    expect(rebuilt.contents).toEqual([5, 6, 7, 8, 9].map((i) => `message ${WINDOW_TRIM_AT + i}`));
    expect(Object.keys((await store.windows.get(session._id))!.entries)).toHaveLength(WINDOW_KEEP);
  });

  it('stores each entry packed into one field, and reads windows written before with plain entries', async () => {
    // Packed: a FerretDB read or write of a window costs by its number of fields (windowEntries.ts).
    const stored = await store.c.windows.findOne({ _id: session._id });
    const someEntry = Object.values(stored?.entries ?? {})[0];
    expect(someEntry).toBeInstanceOf(Binary);

    // A window as an earlier version wrote it: plain entries, and a seed of plain messages.
    const older = await store.sessions.open('dlg_window_older', 'dialogue', new Date(T0));
    const plain = { ...message(1), _id: 'msg_older_1', dialogueId: 'dlg_window_older', sessionId: older._id };
    const seeded = { ...message(0), _id: 'msg_older_0', content: 'from before', sessionId: 'ses_before' };
    await store.c.windows.replaceOne(
      { _id: older._id },
      {
        dialogueId: 'dlg_window_older',
        entries: { [plain._id]: plain },
        seed: [seeded],
        updatedAt: new Date(T0),
      },
    );
    const newer = { ...plain, _id: 'msg_older_2', content: 'message 2', createdAt: new Date(T0 + 2000) };
    await store.messages.insertOnce(newer);

    const read = (await store.windows.get(older._id))!;
    expect(read.entries[plain._id]).toEqual(plain);
    expect(read.entries[newer._id]).toMatchObject({ content: 'message 2', createdAt: new Date(T0 + 2000) });
    expect(read.seed).toEqual([seeded]);
    const r = await store.history.since(older);
    expect(r).toMatchObject({ source: 'window' });
    expect(r.messages.map((m) => m.content)).toEqual(['message 1', 'message 2']);
  });
});
