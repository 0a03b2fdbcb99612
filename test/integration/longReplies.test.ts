// Long replies with code blocks, end to end on both platforms at once: one gateway process with
// the Telegram and Discord adapters against their fake servers. A 9 000-character reply must
// arrive as ordered messages within each platform's limit (4096 / 2000), with every code block
// intact (fences balanced per message, every code line whole inside one message).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.js';
import { eventually } from '../support/testEnv.js';
import { startFakeDiscord, type FakeDiscord } from '../doubles/fakeDiscord.js';
import { mentioningUser, message } from '../fixtures/discordDispatches.js';
import { privateText } from '../fixtures/telegramUpdates.js';

/** ~9 000 characters: prose, three code blocks that fit, one of ~2 600 characters that does not fit in 2000. */
function longReplyWithCode(): string {
  const prose = (n: number) => `Paragraph ${n}. ${'This explains the next step in plain words, slowly. '.repeat(17)}`;
  const code = (lang: string, lines: number, tag: string) =>
    [
      '```' + lang,
      ...Array.from({ length: lines }, (_, i) => `  const ${tag}_${i} = compute(${i}, "<&>"); // line ${i}`),
      '```',
    ].join('\n');
  return [
    prose(1),
    code('ts', 8, 'small'),
    prose(2),
    code('python', 45, 'big'),
    prose(3),
    code('js', 10, 'mid'),
    prose(4),
    prose(5),
    code('sh', 6, 'tail'),
    prose(6),
  ].join('\n\n');
}
const codeLines = (text: string) => text.split('\n').filter((l) => l.includes('= compute('));
const fenceCount = (chunk: string) => chunk.split('\n').filter((l) => l.trimStart().startsWith('```')).length;

describe('a 9 000-character reply with code blocks', () => {
  let h: Harness;
  let discord: FakeDiscord;
  const reply = longReplyWithCode();

  beforeAll(async () => {
    discord = await startFakeDiscord({ echo: true });
    h = await startHarness({ DISCORD_BOT_TOKEN: discord.token, DISCORD_API_ROOT: discord.apiRoot });
    // The reply is ~2 500 tokens: over the default reply limit (2000), which the fake model honours.
    await h.app.store.config.update({ limits: { max_reply_tokens: 4_000 } }, new Date());
  }, 60_000);
  afterAll(async () => {
    await h.stop();
    await discord.close();
  });

  /** The final push is over once its delivery event is recorded (the stored state comes first). */
  const deliveredOnce = (messageId: string) =>
    eventually(
      async () => {
        const events = await h.app.store.c.events.find({ kind: 'delivery', messageId }).toArray();
        return events.length === 1 && events[0]!.data.ok === true;
      },
      60_000,
      'reply delivered',
    );

  it('is generated long enough to need splitting on both platforms', () => {
    expect(reply.length).toBeGreaterThan(8_500);
    expect(reply.length).toBeLessThan(10_000);
  });

  it(
    'arrives on Discord as ordered chunks of at most 2000 characters with every code block intact',
    { timeout: 90_000 },
    async () => {
      const w = discord.world;
      h.llm.enqueue({ kind: 'reply', chunks: reply.match(/[\s\S]{1,700}/g)!, chunkDelayMs: 30 });
      discord.dispatch(
        'MESSAGE_CREATE',
        mentioningUser(
          message(w, 'guild', { content: `<@${w.bot.id}> explain it with code` }),
          w.bot,
          `<@${w.bot.id}>`,
        ),
      );
      const stored = await eventually(
        async () =>
          (await h.app.store.c.messages.findOne({
            senderRole: 'ai',
            'delivery.state': 'complete',
            dialogueId: { $regex: /./ },
          })) ?? undefined,
        30_000,
        'reply stored',
      );
      await deliveredOnce(stored._id);
      const ids = (await h.app.store.messages.get(stored._id))!.delivery!.platformMessageIds;
      const shown = discord.messages(w.generalId).filter((m) => m.bot && ids.includes(m.id));
      expect(shown.map((m) => m.id)).toEqual(ids); // in order
      expect(shown.length).toBeGreaterThanOrEqual(5);
      for (const m of shown) {
        expect(m.content.length).toBeLessThanOrEqual(2000);
        expect(fenceCount(m.content) % 2).toBe(0);
      }
      const shownLines = shown.flatMap((m) => codeLines(m.content));
      expect(shownLines).toEqual(codeLines(reply));
      // The bot's own posts echoed back by the gateway were not taken for people talking.
      expect(await h.app.store.c.messages.countDocuments({ senderRole: 'human', dialogueId: stored.dialogueId })).toBe(
        1,
      );
    },
  );

  it(
    'arrives on Telegram as ordered messages of at most 4096 characters with every code block intact',
    { timeout: 90_000 },
    async () => {
      const chat = 930_001;
      h.llm.enqueue({ kind: 'reply', chunks: reply.match(/[\s\S]{1,700}/g)!, chunkDelayMs: 30 });
      h.tg.pushUpdate(privateText({ updateId: 1, chatId: chat, text: 'explain it with code' }));
      const stored = await eventually(
        async () => {
          const d = await h.app.store.c.dialogues.findOne({ 'chat.chatId': String(chat) });
          return (
            (d &&
              (await h.app.store.c.messages.findOne({
                dialogueId: d._id,
                senderRole: 'ai',
                'delivery.state': 'complete',
              }))) ??
            undefined
          );
        },
        30_000,
        'reply stored',
      );
      await deliveredOnce(stored._id);
      const count = (await h.app.store.messages.get(stored._id))!.delivery!.platformMessageIds.length;
      const shown = h.tg.sentText(chat);
      expect(shown).toHaveLength(count);
      expect(count).toBeGreaterThanOrEqual(3);
      for (const t of shown) expect(t.length).toBeLessThanOrEqual(4096);
      // Code renders as <pre> (no visible fences); every code line is whole, in order.
      expect(shown.flatMap((t) => codeLines(t))).toEqual(codeLines(reply).map((l) => l));
      // A code block that fits in one message is never split across two.
      const small = codeLines(reply).filter((l) => l.includes('small_'));
      expect(shown.some((t) => small.every((l) => t.includes(l)))).toBe(true);
      const sent = h.tg.callsOf('sendMessage').filter((c) => String(c.params.chat_id) === String(chat));
      expect(sent.every((c) => c.params.parse_mode === 'HTML')).toBe(true);
    },
  );
});
