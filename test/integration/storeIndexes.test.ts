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
    // An earlier version's store: a secondary index on messages, beside the unique one.
    const client = await MongoClient.connect(inject('mongoUri'));
    await client.db(dbName).collection('messages').createIndexes(indexesFor('messages', 'all'));
    const db = client.db(dbName);
    expect(await probeIndexUse(db)).toBe('unique');

    const store = await Store.connect(inject('mongoUri'), dbName);
    try {
      expect(await names(store, 'messages')).toEqual(['_id_', 'platform_ref_unique']);
      expect(await names(store, 'dialogues')).toEqual(['_id_', 'chat_unique']);
      // A collection that has no unique index is still there before its first write.
      expect(await names(store, 'turns')).toEqual(['_id_']);
      // Connecting again changes nothing.
      await (await Store.connect(inject('mongoUri'), dbName)).close();
      expect(await names(store, 'messages')).toEqual(['_id_', 'platform_ref_unique']);

      // The redelivery guard still holds: a second message with the same platform reference is refused.
      const ref = { platform: 'telegram', chatId: '1', messageId: '7' };
      await db.collection('messages').insertOne({ _id: 'a' as never, platformRef: ref });
      await expect(db.collection('messages').insertOne({ _id: 'b' as never, platformRef: ref })).rejects.toMatchObject({
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
      'platform_ref_unique',
      'by_turn',
      'by_session',
      'by_dialogue',
      'by_time',
    ]);
    expect(indexesFor('messages', 'unique').map((i) => i.name)).toEqual(['platform_ref_unique']);
  });
});
