// Replies through TelegramOutbound against the fake Bot API: what the user sees, the plain-text
// fallback when Telegram refuses the HTML, 429 surfacing to the core, replies, topics, drafts.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Api, GrammyError } from 'grammy';
import { TelegramDraftUnavailableError, TelegramOutbound } from '../../adapters/telegram/outbound.js';
import { PlatformCallError, PlatformRateLimitedError } from '../../src/delivery/outbound.js';
import type { ChatRef } from '../../src/domain/model.js';
import { startFakeTelegram, type FakeTelegram } from '../doubles/fakeTelegram.js';
import { TEST_BOT_TOKEN } from '../support/testEnv.js';

const DM: ChatRef = { platform: 'telegram', chatId: '100200300' };
const GROUP: ChatRef = { platform: 'telegram', chatId: '-1001100200300' };
const TOPIC: ChatRef = { platform: 'telegram', chatId: '-1001100200400', threadId: '55' };
const CANT_PARSE = {
  error_code: 400,
  description: 'Bad Request: can\'t parse entities: Unsupported start tag "foo" at byte offset 3',
};
const FLOOD = { error_code: 429, description: 'Too Many Requests: retry after 7', retry_after: 7 };

describe('TelegramOutbound', () => {
  let tg: FakeTelegram;
  let out: TelegramOutbound;
  beforeEach(async () => {
    tg = await startFakeTelegram();
    out = new TelegramOutbound(TEST_BOT_TOKEN, tg.apiRoot);
  });
  afterEach(async () => {
    await tg.close();
  });

  it("sends the model's Markdown as Telegram HTML: the user sees formatting, not syntax", async () => {
    const md = '## Plan\n- **bold** step\n- `a < b` check\n\n```js\nif (x && y) {}\n```';
    const { platformMessageId } = await out.send(DM, md);
    const [call] = tg.callsOf('sendMessage');
    expect(call!.params).toMatchObject({
      chat_id: 100200300,
      parse_mode: 'HTML',
      link_preview_options: { is_disabled: true },
    });
    expect(call!.params.text).toBe(
      '<b>Plan</b>\n• <b>bold</b> step\n• <code>a &lt; b</code> check\n\n<pre><code class="language-js">if (x &amp;&amp; y) {}</code></pre>',
    );
    expect(tg.sentText(DM.chatId)).toEqual(['Plan\n• bold step\n• a < b check\n\nif (x && y) {}']);
    expect(Number(platformMessageId)).toBeGreaterThan(0);
  });

  it('sends the same text as plain text when Telegram cannot parse the HTML', async () => {
    tg.failNext('sendMessage', CANT_PARSE);
    const md = 'Some **bold** text';
    const { platformMessageId } = await out.send(DM, md);
    const calls = tg.callsOf('sendMessage');
    expect(calls).toHaveLength(2);
    expect(calls[1]!.params.parse_mode).toBeUndefined();
    expect(calls[1]!.params.text).toBe(md);
    expect(tg.sentText(DM.chatId)).toEqual([md]);
    expect(platformMessageId).toBe('1');
  });

  it('edits in HTML, falls back to plain text, and counts "not modified" as done', async () => {
    const { platformMessageId: id } = await out.send(DM, 'Hel');
    await out.edit(DM, id, 'Hello **world**');
    expect(tg.sentText(DM.chatId)).toEqual(['Hello world']);
    expect(tg.callsOf('editMessageText')[0]!.params).toMatchObject({ parse_mode: 'HTML', text: 'Hello <b>world</b>' });

    tg.failNext('editMessageText', CANT_PARSE);
    await out.edit(DM, id, 'Hello **world**, again');
    expect(tg.sentText(DM.chatId)).toEqual(['Hello **world**, again']);

    await out.edit(DM, id, 'Same *text*');
    await expect(out.edit(DM, id, 'Same *text*')).resolves.toBeUndefined(); // Telegram answered "message is not modified"
    expect(tg.callsOf('editMessageText')).toHaveLength(5);
  });

  it('a 429 surfaces as PlatformRateLimitedError with retry_after, without retrying inside', async () => {
    tg.failNext('sendMessage', FLOOD);
    const err = await out.send(DM, 'hi').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PlatformRateLimitedError);
    expect(err).toMatchObject({ platform: 'telegram', retryAfterMs: 7000 });
    expect(tg.callsOf('sendMessage')).toHaveLength(1);
    expect(tg.sentText(DM.chatId)).toEqual([]);

    const { platformMessageId } = await out.send(DM, 'hi');
    tg.failNext('editMessageText', FLOOD);
    await expect(out.edit(DM, platformMessageId, 'hi there')).rejects.toBeInstanceOf(PlatformRateLimitedError);
    tg.failNext('sendChatAction', FLOOD);
    await expect(out.typing(DM)).rejects.toBeInstanceOf(PlatformRateLimitedError);
    tg.failNext('sendMessageDraft', FLOOD);
    await expect(out.draft!(DM, 1, 'drafting')).rejects.toBeInstanceOf(PlatformRateLimitedError);
    // A rate limit on the plain-text fallback is one too.
    tg.failNext('sendMessage', CANT_PARSE);
    tg.failNext('sendMessage', FLOOD);
    await expect(out.send(DM, 'x')).rejects.toMatchObject({ name: 'PlatformRateLimitedError', retryAfterMs: 7000 });
  });

  it("other errors carry Telegram's answer to the core (status and description), grammY's error as the cause", async () => {
    const err = await out.edit(DM, '999', 'nothing there').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PlatformCallError);
    expect(err).toMatchObject({ platform: 'telegram', status: 400, message: 'Bad Request: message to edit not found' });
    expect((err as PlatformCallError).cause).toBeInstanceOf(GrammyError);
  });

  it('answers a message as a reply that survives the original being deleted', async () => {
    await out.send(GROUP, 'answer', { replyToPlatformMessageId: '42', persona: { name: 'Rainbow' } });
    expect(tg.callsOf('sendMessage')[0]!.params.reply_parameters).toEqual({
      message_id: 42,
      allow_sending_without_reply: true,
    });
  });

  it('posts into a forum topic: messages and typing carry the thread', async () => {
    await out.typing(TOPIC);
    const { platformMessageId } = await out.send(TOPIC, 'in the topic');
    await out.edit(TOPIC, platformMessageId, 'in the topic, edited');
    expect(tg.callsOf('sendChatAction')[0]!.params).toMatchObject({
      chat_id: -1001100200400,
      action: 'typing',
      message_thread_id: 55,
    });
    expect(tg.callsOf('sendMessage')[0]!.params).toMatchObject({ message_thread_id: 55 });
    expect(tg.sentText(TOPIC.chatId)).toEqual(['in the topic, edited']);
  });

  it("counts Telegram's 4096-character limit on the visible text, not on the HTML", async () => {
    const escaped = 'a&'.repeat(2048); // 4096 characters; three times that as HTML
    await out.send(DM, escaped);
    expect(String(tg.callsOf('sendMessage')[0]!.params.text).length).toBe(4096 * 3);
    expect(tg.sentText(DM.chatId)).toEqual([escaped]);
    const api = new Api(TEST_BOT_TOKEN, { apiRoot: tg.apiRoot });
    await expect(
      api.sendMessage(100200300, `<b>${'x'.repeat(4097)}</b>`, { parse_mode: 'HTML' }),
    ).rejects.toMatchObject({
      description: 'Bad Request: message is too long',
    });
  });
});

describe('TelegramOutbound drafts', () => {
  let tg: FakeTelegram;
  beforeEach(async () => {
    tg = await startFakeTelegram();
  });
  afterEach(async () => {
    await tg.close();
  });

  it('streams a private chat reply as a draft, formatted, in its topic when it has one', async () => {
    const out = new TelegramOutbound(TEST_BOT_TOKEN, tg.apiRoot, { drafts: true });
    await out.draft!(DM, 7, 'Thinking about **it**');
    await out.draft!({ ...DM, threadId: '3' }, 7, 'Thinking about **it** more');
    expect(tg.drafts(DM.chatId)).toEqual([
      { draftId: 7, text: 'Thinking about it' },
      { draftId: 7, text: 'Thinking about it more', threadId: 3 },
    ]);
    expect(tg.callsOf('sendMessageDraft')[0]!.params).toMatchObject({
      chat_id: 100200300,
      draft_id: 7,
      parse_mode: 'HTML',
    });
  });

  it('refuses drafts in groups without asking Telegram (the core then streams by edits)', async () => {
    const out = new TelegramOutbound(TEST_BOT_TOKEN, tg.apiRoot);
    await expect(out.draft!(GROUP, 1, 'x')).rejects.toBeInstanceOf(TelegramDraftUnavailableError);
    expect(tg.callsOf('sendMessageDraft')).toHaveLength(0);
    // Telegram itself refuses them too.
    const api = new Api(TEST_BOT_TOKEN, { apiRoot: tg.apiRoot });
    await expect(api.sendMessageDraft(-1001100200300, 1, 'x')).rejects.toMatchObject({
      error_code: 400,
      description: 'Bad Request: TEXTDRAFT_PEER_INVALID',
    });
  });

  it('offers no drafts when they are turned off', () => {
    expect(new TelegramOutbound(TEST_BOT_TOKEN, tg.apiRoot, { drafts: false }).draft).toBeUndefined();
  });
});
