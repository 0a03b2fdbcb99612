// Every Telegram message kind without plain text reads as what was sent (issue 16 A): shared
// content, forwards of every origin, story replies, guest and bot-to-bot messages, and messages
// with one malformed nested field, which lose only that field.
import { describe, expect, it } from 'vitest';
import { translateUpdate } from '../../adapters/telegram/translate.js';
import { inboundEventSchema, type InboundMessage } from '../../src/ingest/inboundEvent.js';
import {
  FORWARD_ORIGINS,
  PLACES,
  SHARED_KINDS,
  forwardedUpdate,
  guestMessageUpdate,
  otherBotUpdate,
  partlyMalformedUpdates,
  sharedKindUpdate,
  storyReplyUpdate,
  textUpdate,
} from '../fixtures/telegramUpdates.js';

const BOT = { id: 7_000_000_001, username: 'fake_test_bot' };

function message(update: object): { e: InboundMessage; warnings: string[] } {
  const t = translateUpdate(update, BOT);
  if (!t.ok) throw new Error(`not translated: ${t.reason}`);
  const e = inboundEventSchema.parse(t.event);
  if (e.kind !== 'message') throw new Error(`expected a message, got ${e.kind}`);
  return { e, warnings: t.warnings };
}

describe('Telegram kinds without plain text', () => {
  it.each(Object.keys(SHARED_KINDS))('%s reads as what was shared', (kind) => {
    const { e, warnings } = message(sharedKindUpdate({ updateId: 1, kind }));
    expect(e.text).toBe(SHARED_KINDS[kind]!.reads);
    expect(warnings).toEqual([]);
  });

  it('a shared kind in a group keeps the sender and chat', () => {
    const { e } = message(sharedKindUpdate({ updateId: 2, kind: 'dice', place: PLACES.group }));
    expect(e.chat).toMatchObject({ kind: 'group' });
    expect(e.sender.displayName).toBe('Ada');
    expect(e.text).toBe('[🎲 dice rolled: 4]');
  });

  it.each(Object.keys(FORWARD_ORIGINS) as Array<keyof typeof FORWARD_ORIGINS>)(
    'a forward from a %s reads "[forwarded from <origin>] <text>"',
    (origin) => {
      const { e } = message(forwardedUpdate({ updateId: 3, origin, text: 'the crag is dry today' }));
      expect(e.text).toBe(`${FORWARD_ORIGINS[origin].reads} the crag is dry today`);
    },
  );

  it('a forwarded poll reads the origin and the poll', () => {
    const u = forwardedUpdate({ updateId: 4, origin: 'channel', text: 'x' });
    const { text: _t, ...rest } = u.message!;
    const { e } = message({
      update_id: 4,
      message: { ...rest, poll: SHARED_KINDS.poll!.body.poll },
    });
    expect(e.text).toBe(`[forwarded from Daily News (Editor Ed)] ${SHARED_KINDS.poll!.reads}`);
  });

  it('a reply to a story quotes the story, not "a message without text"', () => {
    const { e } = message(storyReplyUpdate({ updateId: 5, text: 'love this view' }));
    expect(e.text).toBe('love this view');
    expect(e.replyTo).toMatchObject({ platformMessageId: 'story:200300400:3', text: '[a story from Grace Hopper]' });
  });

  it('a reply to a poll quotes the poll', () => {
    const u = textUpdate({ updateId: 6, text: 'Crag!', replyTo: { messageId: 5 } });
    const reply = { ...u.message!.reply_to_message!, poll: SHARED_KINDS.poll!.body.poll };
    const { e } = message({ update_id: 6, message: { ...u.message!, reply_to_message: reply } });
    expect(e.replyTo?.text).toBe(SHARED_KINDS.poll!.reads);
  });

  it('a Bot API 10 guest message is kept as context, never answered', () => {
    const { e } = message(
      guestMessageUpdate({ updateId: 7, place: PLACES.supergroup, text: 'summarise', botUsername: BOT.username }),
    );
    expect(e.answerable).toBe(false);
    expect(e.text).toBe('@fake_test_bot summarise');
    expect(e.mentions).toEqual([{ username: 'fake_test_bot', text: '@fake_test_bot' }]);
  });

  it('another bot’s message says it is from a bot (the core never answers bots)', () => {
    const { e } = message(otherBotUpdate({ updateId: 8, place: PLACES.group, text: '@fake_test_bot ping' }));
    expect(e.sender).toMatchObject({ isBot: true, username: 'echo_test_bot' });
    expect(e.answerable).toBeUndefined();
  });

  it.each(partlyMalformedUpdates(9).map((m) => [m.what, m] as const))(
    'one malformed nested field (%s) drops only that field',
    (_what, m) => {
      const { e, warnings } = message(m.update);
      expect(e.text).toBe(m.text);
      expect(warnings).toEqual([m.dropped]);
    },
  );

  it('a photo with one bad size keeps the good sizes', () => {
    const m = partlyMalformedUpdates(10).find((x) => x.what === 'photo size without file_id')!;
    const { e } = message(m.update);
    expect(e.attachments).toHaveLength(1);
    expect(e.attachments[0]).toMatchObject({ kind: 'image', width: 1280 });
  });
});
