// Telegram updates (real Bot API shapes) → InboundEvents, every kind in every kind of chat.
import { describe, expect, it } from 'vitest';
import { translateUpdate, type TranslateResult } from '../../adapters/telegram/translate.js';
import { inboundEventSchema, type InboundEvent } from '../../src/ingest/inboundEvent.js';
import {
  PLACES,
  albumUpdates,
  audioUpdate,
  documentUpdate,
  editedCaptionUpdate,
  editedTextUpdate,
  malformedUpdates,
  newMembersUpdate,
  photoUpdate,
  stickerUpdate,
  textUpdate,
  videoNoteUpdate,
  videoUpdate,
  voiceUpdate,
  type ChatPlace,
} from '../fixtures/telegramUpdates.js';

const BOT = { id: 7_000_000_001, username: 'fake_test_bot' };
const USER = 100_200_300;

/** The event as the core receives it: translated, then validated by the core's own schema. */
function translated(update: object): InboundEvent {
  const t: TranslateResult = translateUpdate(update, BOT);
  if (!t.ok) throw new Error(`not translated: ${t.reason}`);
  return inboundEventSchema.parse(t.event);
}
function message(update: object) {
  const e = translated(update);
  if (e.kind !== 'message') throw new Error(`expected a message, got ${e.kind}`);
  return e;
}

const places: Array<[string, ChatPlace, object]> = [
  ['a private chat', PLACES.private, { chatId: String(USER), kind: 'private' }],
  ['a group', PLACES.group, { chatId: String(PLACES.group.chatId), kind: 'group', title: PLACES.group.title }],
  [
    'a supergroup',
    PLACES.supergroup,
    { chatId: String(PLACES.supergroup.chatId), kind: 'group', title: PLACES.supergroup.title },
  ],
  [
    'a forum topic',
    PLACES.topic,
    {
      chatId: String(PLACES.topic.chatId),
      kind: 'group',
      title: PLACES.topic.title,
      threadId: String(PLACES.topic.threadId),
    },
  ],
];

describe.each(places)('Telegram translation in %s', (_name, place, chat) => {
  it('text: chat, sender, recipient, time; a topic root is not a reply', () => {
    const e = message(
      textUpdate({ updateId: 10, place, text: 'Hello there', date: 1_700_000_000, lastName: 'Lovelace' }),
    );
    expect(e).toEqual({
      platform: 'telegram',
      kind: 'message',
      chat,
      platformMessageId: '10',
      recipient: { userId: String(BOT.id), username: BOT.username },
      sender: {
        userId: String(USER),
        isBot: false,
        displayName: 'Ada Lovelace',
        username: 'ada_test',
        languageCode: 'en',
      },
      text: 'Hello there',
      attachments: [],
      mentions: [],
      sentAt: new Date(1_700_000_000_000),
    });
  });

  it('photo: the largest size becomes one image attachment, the caption the text', () => {
    const e = message(
      photoUpdate({
        updateId: 11,
        place,
        caption: 'Look at this',
        file: { file_id: 'PHOTO-BIG', file_unique_id: 'U-BIG', file_size: 150_000 },
      }),
    );
    expect(e.text).toBe('Look at this');
    expect(e.attachments).toEqual([
      {
        kind: 'image',
        fileRef: 'PHOTO-BIG',
        uniqueId: 'U-BIG',
        size: 150_000,
        mime: 'image/jpeg',
        width: 1280,
        height: 960,
        sourceMessageId: '11',
      },
    ]);
    expect(e.chat).toEqual(chat);
  });

  it('voice, audio, video, video note and document keep their file, type, name and duration', () => {
    const voice = message(voiceUpdate({ updateId: 12, place, duration: 4 })).attachments[0];
    expect(voice).toMatchObject({ kind: 'voice', mime: 'audio/ogg', duration: 4, sourceMessageId: '12' });
    expect(voice?.fileRef).toBeTruthy();
    expect(voice?.uniqueId).toBeTruthy();

    const audio = message(audioUpdate({ updateId: 13, place, caption: 'our song', fileName: 'song.mp3' }));
    expect(audio.text).toBe('our song');
    expect(audio.attachments).toMatchObject([
      { kind: 'audio', fileName: 'song.mp3', mime: 'audio/mpeg', duration: 30, size: 480_000 },
    ]);

    expect(message(videoUpdate({ updateId: 14, place })).attachments).toMatchObject([
      { kind: 'video', mime: 'video/mp4', fileName: 'clip.mp4', width: 1280, height: 720, duration: 12 },
    ]);
    expect(message(videoNoteUpdate({ updateId: 15, place })).attachments).toMatchObject([
      { kind: 'video_note', mime: 'video/mp4', width: 384, height: 384, duration: 7 },
    ]);
    const doc = message(
      documentUpdate({ updateId: 16, place, fileName: 'report.pdf', mime: 'application/pdf', caption: 'read me' }),
    );
    expect(doc.text).toBe('read me');
    expect(doc.attachments).toMatchObject([
      { kind: 'document', fileName: 'report.pdf', mime: 'application/pdf', size: 52_000, sourceMessageId: '16' },
    ]);
  });

  it('stickers of every format carry their emoji and set', () => {
    for (const [i, format, mime] of [
      [0, 'static', 'image/webp'],
      [1, 'animated', 'application/x-tgsticker'],
      [2, 'video', 'video/webm'],
    ] as const) {
      const e = message(stickerUpdate({ updateId: 20 + i, place, emoji: '🐱', setName: 'Cats', format }));
      expect(e.text).toBeUndefined();
      expect(e.attachments).toMatchObject([{ kind: 'sticker', emoji: '🐱', setName: 'Cats', mime }]);
    }
  });

  it('@mentions and text_mentions (in text and captions) become mentions', () => {
    const e = message(
      textUpdate({
        updateId: 30,
        place,
        text: '@fake_test_bot ask Grace and @linus_t 你好',
        textMentions: [{ text: 'Grace', userId: 555 }],
      }),
    );
    expect(e.mentions).toEqual([
      { username: 'fake_test_bot', text: '@fake_test_bot' },
      { userId: '555', text: 'Grace' },
      { username: 'linus_t', text: '@linus_t' },
    ]);
    const captioned = message(photoUpdate({ updateId: 31, place, caption: '🌄 for @fake_test_bot' }));
    expect(captioned.mentions).toEqual([{ username: 'fake_test_bot', text: '@fake_test_bot' }]);
  });

  it('a reply carries the replied message, its sender, its text and the partial quote', () => {
    const e = message(
      textUpdate({
        updateId: 40,
        place,
        text: 'Why?',
        replyTo: {
          messageId: 39,
          userId: BOT.id,
          isBot: true,
          firstName: 'Fake Bot',
          username: BOT.username,
          text: 'The sky is blue. Mostly.',
        },
        quote: 'The sky is blue.',
      }),
    );
    expect(e.replyTo).toEqual({
      platformMessageId: '39',
      sender: { userId: String(BOT.id), isBot: true, displayName: 'Fake Bot', username: BOT.username },
      text: 'The sky is blue. Mostly.',
      quote: 'The sky is blue.',
    });
    const toPhoto = message(
      textUpdate({ updateId: 41, place, text: 'nice', replyTo: { messageId: 38, caption: 'my cat' } }),
    );
    expect(toPhoto.replyTo).toMatchObject({ platformMessageId: '38', text: 'my cat' });
  });

  it('album items share the media group id, each with its own message', () => {
    const events = albumUpdates({ updateId: 50, place, count: 3, mediaGroupId: '13579', caption: 'Trip' }).map(message);
    expect(events.map((e) => e.mediaGroupId)).toEqual(['13579', '13579', '13579']);
    expect(events.map((e) => e.platformMessageId)).toEqual(['50', '51', '52']);
    expect(events.map((e) => e.text)).toEqual(['Trip', undefined, undefined]);
    expect(events.map((e) => e.attachments[0]?.sourceMessageId)).toEqual(['50', '51', '52']);
  });

  it('an edited message becomes an edit with the new text and the edit time', () => {
    const e = translated(
      editedTextUpdate({
        updateId: 60,
        messageId: 10,
        place,
        text: 'Hello there, @fake_test_bot',
        date: 1_700_000_000,
        editDate: 1_700_000_090,
      }),
    );
    expect(e).toEqual({
      platform: 'telegram',
      kind: 'edit',
      chat,
      platformMessageId: '10',
      recipient: { userId: String(BOT.id), username: BOT.username },
      sender: { userId: String(USER), isBot: false, displayName: 'Ada', username: 'ada_test', languageCode: 'en' },
      text: 'Hello there, @fake_test_bot',
      mentions: [{ username: 'fake_test_bot', text: '@fake_test_bot' }],
      editedAt: new Date(1_700_000_090_000),
    });
  });
});

describe('Telegram translation, special cases', () => {
  it('an edited album caption names its album', () => {
    const e = translated(
      editedCaptionUpdate({
        updateId: 70,
        messageId: 50,
        place: PLACES.group,
        caption: 'Trip (day 2)',
        mediaGroupId: '13579',
      }),
    );
    expect(e).toMatchObject({ kind: 'edit', platformMessageId: '50', text: 'Trip (day 2)', mediaGroupId: '13579' });
  });

  it('service messages and channel posts are ignored with a reason', () => {
    const joined = translateUpdate(newMembersUpdate({ updateId: 80, place: PLACES.group }), BOT);
    expect(joined).toEqual({ ok: false, ignored: true, reason: 'service message (new_chat_members)' });
    const post = {
      update_id: 81,
      channel_post: { message_id: 1, date: 1, chat: { id: -100999, type: 'channel', title: 'News' }, text: 'hi' },
    };
    expect(translateUpdate(post, BOT)).toMatchObject({ ok: false, ignored: true });
    const inChannel = {
      update_id: 82,
      message: { message_id: 1, date: 1, chat: { id: -100999, type: 'channel', title: 'News' }, text: 'hi' },
    };
    expect(translateUpdate(inChannel, BOT)).toMatchObject({
      ok: false,
      ignored: true,
      reason: 'channel posts are not handled',
    });
  });

  it.each(malformedUpdates(90).map((m) => [m.what, m.update] as const))(
    'a malformed update (%s) is refused with a reason',
    (_what, update) => {
      const t = translateUpdate(update, BOT);
      expect(t.ok).toBe(false);
      expect(t).toMatchObject({ ignored: false, reason: expect.stringMatching(/^malformed update: /) as unknown });
    },
  );

  it('not an update at all is malformed', () => {
    expect(translateUpdate('nope', BOT)).toMatchObject({ ok: false, ignored: false });
    expect(translateUpdate({ message: {} }, BOT)).toMatchObject({
      ok: false,
      ignored: false,
      reason: 'malformed update: update_id missing',
    });
  });

  it("an anonymous admin speaks as the group, not as Telegram's stand-in bot", () => {
    const u = textUpdate({ updateId: 100, place: PLACES.supergroup, text: 'Announcement' });
    const msg = {
      ...u.message!,
      from: { id: 1_087_968_824, is_bot: true, first_name: 'Group', username: 'GroupAnonymousBot' },
      sender_chat: { id: PLACES.supergroup.chatId, type: 'supergroup', title: 'Book Club' },
    };
    expect(message({ update_id: 100, message: msg }).sender).toEqual({
      userId: String(PLACES.supergroup.chatId),
      isBot: false,
      displayName: 'Book Club',
    });
  });

  it('a reply to a message in another chat is qualified by that chat and carried by its quote', () => {
    const u = textUpdate({ updateId: 110, text: 'agreed' });
    const msg = {
      ...u.message!,
      external_reply: {
        origin: { type: 'user', date: 1, sender_user: { id: 42, is_bot: false, first_name: 'Bob' } },
        chat: { id: -100555, type: 'supergroup', title: 'Other' },
        message_id: 7,
      },
      quote: { text: 'we should go', position: 0 },
    };
    expect(message({ update_id: 110, message: msg }).replyTo).toEqual({
      platformMessageId: '-100555:7',
      sender: { userId: '42', isBot: false, displayName: 'Bob' },
      text: 'we should go',
      quote: 'we should go',
    });
  });

  it('a GIF (animation, which also fills document) is one animation attachment', () => {
    const u = textUpdate({ updateId: 120, text: 'x' });
    const gif = {
      file_id: 'GIF',
      file_unique_id: 'UGIF',
      width: 320,
      height: 240,
      duration: 3,
      file_name: 'fun.mp4',
      mime_type: 'video/mp4',
      file_size: 90_000,
    };
    const { text: _text, entities: _entities, ...rest } = u.message!;
    const e = message({
      update_id: 120,
      message: {
        ...rest,
        animation: gif,
        document: { file_id: 'GIF', file_unique_id: 'UGIF', file_name: 'fun.mp4', mime_type: 'video/mp4' },
      },
    });
    expect(e.attachments).toEqual([
      {
        kind: 'animation',
        fileRef: 'GIF',
        uniqueId: 'UGIF',
        size: 90_000,
        fileName: 'fun.mp4',
        mime: 'video/mp4',
        duration: 3,
        width: 320,
        height: 240,
        sourceMessageId: '120',
      },
    ]);
  });

  it('a message without text or media (a location) reaches the core with what it shares as its text', () => {
    const u = textUpdate({ updateId: 130, text: 'x' });
    const { text: _text, entities: _entities, ...rest } = u.message!;
    const e = message({ update_id: 130, message: { ...rest, location: { latitude: 1, longitude: 2 } } });
    expect(e.text).toBe('[location 1.0000, 2.0000]');
    expect(e.attachments).toEqual([]);
  });

  it('the reply_to_message chain of a non-forum supergroup does not make a thread', () => {
    const u = textUpdate({
      updateId: 140,
      place: PLACES.supergroup,
      text: 'sure',
      replyTo: { messageId: 139, text: 'coming?' },
    });
    const e = message({ update_id: 140, message: { ...u.message!, message_thread_id: 139 } });
    expect(e.chat.threadId).toBeUndefined();
    expect(e.replyTo?.platformMessageId).toBe('139');
  });
});
