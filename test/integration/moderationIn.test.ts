// SPEC §14, moderation of what people send, end to end through grammY: a message with a
// configured keyword is kept, refused, never sent to the model, its sender told, and the verdict
// is a `moderation` event of its dialogue; the same chat's clean message is answered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.js';
import { eventually } from '../support/testEnv.js';
import { textUpdate } from '../fixtures/telegramUpdates.js';
import type { Message } from '../../src/domain/model.js';

describe('moderation of incoming messages (SPEC §14)', () => {
  let h: Harness;
  let updateId = 1;
  beforeAll(async () => {
    h = await startHarness();
    await h.app.store.config.update({ moderation: { keywords: ['违禁词', 'forbiddenword'] } }, new Date());
  });
  afterAll(() => h.stop());

  async function dm(userId: number, text: string, languageCode = 'en'): Promise<Message> {
    const id = updateId++;
    const messageId = id * 1000;
    h.tg.pushUpdate(textUpdate({ updateId: id, messageId, userId, text, languageCode }));
    return eventually(
      async () =>
        (await h.app.store.c.messages.findOne({
          'platformRef.chatId': String(userId),
          'platformRef.messageId': String(messageId),
        })) ?? undefined,
    );
  }

  const callsWith = (text: string) => h.llm.requests.filter((r) => JSON.stringify(r.body).includes(text)).length;

  it('refuses a flagged message before the model, tells the sender in their language, and records the verdict', async () => {
    const flagged = await dm(701, '这里有一个违禁词', 'zh-hans');
    expect(flagged.rejected).toEqual({ code: 'MODERATION_FLAGGED', reason: 'moderation' });
    expect(flagged.turnId).toBeUndefined();
    const told = await eventually(() => Promise.resolve(h.tg.sentText(701).find((t) => t.includes('内容审核'))));
    expect(told).toContain('没有发给 AI');
    const event = await eventually(
      async () => (await h.app.store.c.events.findOne({ kind: 'moderation', messageId: flagged._id })) ?? undefined,
    );
    expect(event.data).toMatchObject({ direction: 'in', flagged: true, by: 'keyword', matched: '违禁词' });

    // Positive control: a clean message in the same chat reaches the model and is answered.
    const clean = await dm(701, '今天天气怎么样', 'zh-hans');
    await eventually(
      async () => (await h.app.store.c.turns.findOne({ _id: clean.turnId ?? '-' }))?.status === 'responded',
      15_000,
    );
    expect(callsWith('今天天气怎么样')).toBeGreaterThanOrEqual(1);
    expect(callsWith('违禁词')).toBe(0);
    // Nor is the flagged message in any later prompt (it is not part of the conversation).
    expect(await h.app.store.c.events.countDocuments({ kind: 'moderation', messageId: clean._id })).toBe(0);
  });

  it('matches a Latin keyword as a word, not inside another word', async () => {
    expect((await dm(702, 'this has forbiddenword in it')).rejected?.code).toBe('MODERATION_FLAGGED');
    const inside = await dm(702, 'notaforbiddenwordy sentence');
    expect(inside.rejected).toBeUndefined();
    expect(inside.turnId).toBeDefined();
  });
});
