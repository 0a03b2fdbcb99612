// The core's wording of shared content (src/domain/sharedContent.ts), the boundary folding it
// into the text, and a Discord sticker's name in the rendered message.
import { describe, expect, it } from 'vitest';
import { formatAmount, renderSharedItem, textWithShared } from '../../src/domain/sharedContent.js';
import { inboundEventSchema } from '../../src/ingest/inboundEvent.js';
import { renderAttachment } from '../../src/transcript/renderMessage.js';
import { readableContent } from '../../adapters/discord/content.js';

describe('shared content as the model reads it', () => {
  it('words amounts by the currency’s minor units', () => {
    expect(formatAmount(499, 'usd')).toBe('4.99 USD');
    expect(formatAmount(500, 'JPY')).toBe('500 JPY');
    expect(formatAmount(50, 'XTR')).toBe('50 XTR');
  });

  it('an embed card without any text still reads as a card', () => {
    expect(renderSharedItem({ kind: 'embed', fields: [] })).toBe('[card without text]');
  });

  it('folds a forward origin, shared items and text in that order; leaves plain text alone', () => {
    expect(textWithShared('hi', [{ kind: 'dice', emoji: '🎯', value: 6 }], { name: 'Bob' })).toBe(
      '[forwarded from Bob] [🎯 dice rolled: 6]\nhi',
    );
    expect(textWithShared(' as typed ', [])).toBe(' as typed ');
    expect(textWithShared(undefined, [], {})).toBe('[forwarded message]');
  });

  it('the core’s boundary words shared items into the text of a message and of its quote', () => {
    const e = inboundEventSchema.parse({
      platform: 'telegram',
      chat: { chatId: '1', kind: 'private' },
      platformMessageId: '9',
      sender: { userId: '1', isBot: false },
      shared: [{ kind: 'location', latitude: 1, longitude: 2 }],
      replyTo: { platformMessageId: 'story:1:2', shared: [{ kind: 'story', from: 'Ann' }] },
      sentAt: new Date(),
    });
    expect(e.kind === 'message' && [e.text, e.replyTo?.text]).toEqual([
      '[location 1.0000, 2.0000]',
      '[a story from Ann]',
    ]);
  });

  it('a named sticker renders its name', () => {
    const at = new Date();
    expect(
      renderAttachment({
        kind: 'sticker',
        fileRef: 'x',
        stickerName: 'wave',
        sourceMessageId: '1',
        processing: { state: 'pending', attempts: 0, updatedAt: at },
      }),
    ).toBe('[Sticker "wave"]');
  });

  it('Discord mention codes read as names, unknown ones neutrally', () => {
    const n = {
      mentionedUsers: [{ id: '111111111111111111', displayName: 'Ally' }],
      mentionedRoles: [{ id: '222222222222222222', name: 'Mods' }],
      mentionedChannels: [{ id: '333333333333333333', name: null }],
    };
    expect(
      readableContent('<@111111111111111111> <@!111111111111111111> <@&222222222222222222> <#333333333333333333>', n),
    ).toBe('@Ally @Ally @Mods #unknown-channel');
  });
});
