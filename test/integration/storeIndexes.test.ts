// Which indexes the store keeps depends on what the server reads: the embedded FerretDB (sqlite
// handler) scans for every filter but `_id`, so there only the unique indexes are kept (for what
// they enforce), and secondary ones an earlier version created are dropped; MongoDB gets them all.
import { randomBytes } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { MongoClient } from 'mongodb';
import { Store } from '../../src/store/store.js';
import { indexesFor, probeIndexUse } from '../../src/store/collections.js';

const names = async (store: Store, name: 'messages' | 'turns' | 'dialogues') =>
  (await store.c[name].listIndexes().toArray()).map((i: { name?: string }) => i.name).sort();

describe('the store’s indexes on the embedded server', () => {
  it('keeps the unique ones, drops what an earlier version left, and still enforces uniqueness', async () => {
    const dbName = `test_${randomBytes(4).toString('hex')}`;
    // An earlier version's store: a secondary index on messages, beside the unique ones it had
    // (since replaced by keys that tell private chats with different bots apart).
    const client = await MongoClient.connect(inject('mongoUri'));
    const old = (key: Record<string, 1>, name: string) => ({ key, name, unique: true, sparse: true });
    await client
      .db(dbName)
      .collection('messages')
      .createIndexes([
        old({ 'platformRef.platform': 1, 'platformRef.chatId': 1, 'platformRef.messageId': 1 }, 'platform_ref_unique'),
        ...indexesFor('messages', 'all').filter((i) => !i.unique),
      ]);
    await client
      .db(dbName)
      .collection('dialogues')
      .createIndexes([old({ 'chat.platform': 1, 'chat.chatId': 1, 'chat.threadId': 1 }, 'chat_unique')]);
    const db = client.db(dbName);
    expect(await probeIndexUse(db)).toBe('unique');

    const store = await Store.connect(inject('mongoUri'), dbName);
    try {
      expect(await names(store, 'messages')).toEqual(['_id_', 'platform_ref_bot_unique']);
      expect(await names(store, 'dialogues')).toEqual(['_id_', 'chat_agent_unique']);
      // A collection that has no unique index is still there before its first write.
      expect(await names(store, 'turns')).toEqual(['_id_']);
      // Connecting again changes nothing.
      await (await Store.connect(inject('mongoUri'), dbName)).close();
      expect(await names(store, 'messages')).toEqual(['_id_', 'platform_ref_bot_unique']);

      // The redelivery guard still holds where every key field is present (FerretDB's sqlite
      // index compares no missing field; a message's derived _id is what dedupes the rest).
      const ref = { platform: 'telegram', chatId: '1', messageId: '7', bot: 'agt_a' };
      await db.collection('messages').insertOne({ _id: 'a' as never, platformRef: ref });
      await expect(db.collection('messages').insertOne({ _id: 'b' as never, platformRef: ref })).rejects.toMatchObject({
        code: 11000,
      });
      // The same number in the private chat with another bot is another message.
      await db.collection('messages').insertOne({ _id: 'c' as never, platformRef: { ...ref, bot: 'agt_b' } });
      // A private chat has one dialogue per agent, never two of the same.
      const chat = { platform: 'telegram', chatId: '1', threadId: '', bot: 'agt_a', agentId: '' };
      await db.collection('dialogues').insertOne({ _id: 'd1' as never, chat });
      await db.collection('dialogues').insertOne({ _id: 'd2' as never, chat: { ...chat, bot: 'agt_b' } });
      await expect(db.collection('dialogues').insertOne({ _id: 'd3' as never, chat })).rejects.toMatchObject({
        code: 11000,
      });
    } finally {
      await store.db.dropDatabase();
      await store.close();
      await client.close();
    }
  });

  it('defines every index for a server that reads them (MongoDB)', () => {
    expect(indexesFor('messages', 'all').map((i) => i.name)).toEqual([
      'platform_ref_bot_unique',
      'by_turn',
      'by_session',
      'by_dialogue',
      'by_time',
    ]);
    expect(indexesFor('messages', 'unique').map((i) => i.name)).toEqual(['platform_ref_bot_unique']);
  });
});
