// The config document and the prompt budget through the real pipeline: a config change made by
// another connection applies on the next turn without a restart; over `max_total_tokens` the
// model is not called and the user is told to summarise (PROMPT_TOO_LONG); over the middle
// threshold a warning is recorded once per kind, never truncating; invalid values are refused
// naming the field and its range.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.js';
import { eventually } from '../support/testEnv.js';
import { privateText } from '../fixtures/telegramUpdates.js';
import { Redis } from 'ioredis';
import { Store } from '../../src/store/store.js';
import { RedisWriteMark } from '../../src/store/redisWriteMark.js';
import { GatewayError } from '../../src/errors.js';
import { replyIdOf } from '../../src/domain/aiMessage.js';

const CHAT = 779_001;

describe('config document and prompt budget', () => {
  let h: Harness;
  let other: Store; // another process's connection, as an operator tool would use
  let otherRedis: Redis;
  beforeEach(async () => {
    h = await startHarness({ EMBEDDINGS: 'offline' });
    // Every process of one deployment shares its Redis, and with it the config's write mark.
    otherRedis = new Redis(h.env.REDIS_URL, { maxRetriesPerRequest: null });
    other = await Store.connect(h.env.MONGODB_URI!, h.env.MONGODB_DB, {
      configMark: new RedisWriteMark(otherRedis, {
        prefix: h.env.QUEUE_PREFIX,
        dbName: h.env.MONGODB_DB,
        kind: 'config',
      }),
    });
  });
  afterEach(async () => {
    await other.close();
    await otherRedis.quit();
    await h.stop();
  });

  let update = 0;
  async function say(text: string) {
    update += 1;
    h.tg.pushUpdate(privateText({ updateId: 70_000 + update, chatId: CHAT, firstName: 'Lin', text }));
    const msg = await eventually(
      async () =>
        (await h.app.store.c.messages.findOne({ 'platformRef.chatId': String(CHAT), content: text })) ?? undefined,
      15_000,
      'stored',
    );
    const turn = await eventually(
      async () => {
        const t = await h.app.store.turns.get(msg.turnId!);
        return t?.status === 'responded' ? t : undefined;
      },
      20_000,
      'answered',
    );
    const reply = (await h.app.store.messages.get(replyIdOf(turn._id)))!;
    const built = (await h.app.store.c.events.findOne({ turnId: turn._id, kind: 'context_built' }))!;
    return { turn, reply, built };
  }

  it('refuses invalid values naming the field and its range, and restores defaults', async () => {
    await expect(other.config.update({ limits: { max_total_tokens: 500 } }, new Date())).rejects.toThrow(
      /limits\.max_total_tokens must be an integer between 10000 and 200000 \(got 500\)/,
    );
    await expect(other.config.update({ limits: { max_total_tokens: 500 } }, new Date())).rejects.toBeInstanceOf(
      GatewayError,
    );
    const changed = await other.config.update({ thresholds: { recall_top_k: 3 } }, new Date(), 'ops');
    expect(changed.version).toBe(1);
    expect((await h.app.store.config.get()).config.thresholds.recall_top_k).toBe(3);
    const reset = await other.config.reset(new Date());
    expect(reset.config.thresholds.recall_top_k).toBe(5);
    expect(reset.version).toBe(2);
  });

  it('over max_total_tokens the model is not called and the user is told to summarise; the next turn after a change works', async () => {
    // Telegram allows 4 096 characters per message: three long ones make a long session.
    const long = '很'.repeat(4_000); // 4 000 tokens each
    const first = await say(`${long}一`);
    expect(first.reply.delivery?.state).toBe('complete');
    expect((await say(`${long}三`)).reply.delivery?.state).toBe('complete');
    const calls = h.llm.requests.length;

    // Another process switches to whole-session mode and the lowest limit; no restart.
    await other.config.update(
      {
        preferences: { conversation_load_all: true },
        limits: { max_total_tokens: 10_000, middle_section_warning_tokens: 5_000 },
      },
      new Date(),
    );
    const second = await say(`${long}二`);
    expect(second.reply.delivery?.state).toBe('error');
    expect(second.reply.delivery?.error?.code).toBe('PROMPT_TOO_LONG');
    expect(h.llm.requests.length).toBe(calls); // never sent
    expect(second.built.data).toMatchObject({ tooLong: { limit: 10_000 }, mode: 'load_all' });
    expect(Number(second.built.data.totalTokens)).toBeGreaterThan(10_000);
    const shown = h.tg
      .callsOf('sendMessage')
      .map((c) => String(c.params.text))
      .at(-1)!;
    expect(shown).toContain('/summary');
    expect(shown).toMatch(/\d{5} tokens/);

    // Raising the limit applies on the next turn: answered, with one deduplicated warning.
    await other.config.update({ limits: { max_total_tokens: 50_000, conversation_max_tokens: 10_000 } }, new Date());
    const third = await say('还在吗？');
    expect(third.reply.delivery?.state).toBe('complete');
    const fourth = await say('你好');
    expect(fourth.reply.delivery?.state).toBe('complete');
    const warnings = await h.app.store.c.events
      .find({ kind: 'warning', dialogueId: third.turn.dialogueId })
      .sort({ 'data.category': 1 })
      .toArray();
    expect(warnings).toHaveLength(2); // one per category, however many turns hit it
    expect(warnings[0]!.data).toMatchObject({ category: 'conversation_over_limit', threshold: 10_000, count: 2 });
    expect(warnings[1]!.data).toMatchObject({ category: 'middle_section_overflow', threshold: 5_000, count: 2 });
    // Never truncated: the whole session is in the prompt.
    const prompt = JSON.stringify(fourth.built.data.prompt);
    expect(prompt).toContain(`${long}一`);
    expect(prompt).toContain(`${long}二`);
  }, 90_000);
});
