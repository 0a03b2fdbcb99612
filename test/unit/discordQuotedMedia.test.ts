// A Discord reply to a message that carried an image (issue 35 D5, a real capture: a type-19
// reply whose referenced_message holds `image.png`): the quote says the replied-to message had
// the image, as a Telegram reply's does, instead of keeping only its text.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { quoteBody, renderMessage } from '../../src/transcript/renderMessage.js';
import type { Message, Quote } from '../../src/domain/model.js';
import { resolveQuote } from '../../src/ingest/quote.js';
import type { InboundMessage } from '../../src/ingest/inboundEvent.js';
import type { Store } from '../../src/store/store.js';
import { snowflake } from '../fixtures/discordDispatches.js';
import { readCapture, startCaptureRig, type CaptureRig } from '../support/discordCaptureRig.js';

const capture = readCapture('dc-capture-reply-mention-type19.json');
const REPLIED_TO = '1330049099361419264';

let rig: CaptureRig;
beforeAll(async () => {
  rig = await startCaptureRig(capture);
}, 30_000);
afterAll(async () => {
  await rig.stop();
});

/** The reply as the gateway passed it to the core. */
async function reply(): Promise<InboundMessage> {
  if (rig.eventsFor(capture.d.id).length === 0) rig.fake.dispatch('MESSAGE_CREATE', capture.d);
  const e = await rig.eventFor(capture.d.id);
  if (e.kind !== 'message') throw new Error('not a message');
  return e;
}

/** A store that holds neither message: the quote comes from Discord's copy alone. */
const emptyStore = {
  messages: { get: () => Promise.resolve(null), findByDeliveredId: () => Promise.resolve(null) },
} as unknown as Store;

const stored = (e: InboundMessage, quote: Quote): Message =>
  ({
    _id: 'msg_1',
    dialogueId: 'dlg_1',
    sessionId: 'ses_1',
    turnId: 'trn_1',
    senderRole: 'human',
    senderId: 'hum_1',
    contentType: 'quote_reply',
    content: e.text ?? '',
    contentMeta: { quote, senderName: e.sender.displayName },
    mentions: [],
    visible: true,
    createdAt: new Date(),
    updatedAt: new Date(),
  }) as unknown as Message;

describe('a Discord reply to a message with an image', () => {
  it('carries the replied-to message’s image, as Discord sent it', async () => {
    const e = await reply();
    expect(e.replyTo).toMatchObject({
      platformMessageId: REPLIED_TO,
      sender: { userId: '675081906911707156', username: 'hawksrevolution', displayName: 'Sergiu S' },
      media: [{ kind: 'image', fileName: 'image.png' }],
    });
    expect(e.replyTo?.text).toMatch(/^Hi guys, I have a probably quite stupid question/);
    // The image is the quoted message's, not the reply's own.
    expect(e.attachments).toEqual([]);
  });

  it('carries a replied-to sticker by its name, beside the files', async () => {
    const [id, repliedTo] = [snowflake(), snowflake()];
    const d = z.looseObject({ message_reference: z.looseObject({}), referenced_message: z.looseObject({}) });
    const { message_reference: reference, referenced_message: original } = d.parse(capture.d);
    const referenced = { ...original, id: repliedTo, content: '' };
    rig.fake.dispatch('MESSAGE_CREATE', {
      ...capture.d,
      id,
      message_reference: { ...reference, message_id: repliedTo },
      referenced_message: { ...referenced, sticker_items: [{ id: snowflake(), name: 'wave', format_type: 1 }] },
    });
    const e = await rig.eventFor(id);
    if (e.kind !== 'message') throw new Error('not a message');
    expect(e.replyTo?.media).toEqual([
      { kind: 'image', fileName: 'image.png' },
      { kind: 'sticker', fileName: 'wave' },
    ]);
    expect(e.replyTo?.text).toBeUndefined();
  });

  it('reads to the model as that image above the quoted text', async () => {
    const e = await reply();
    const quote = await resolveQuote(emptyStore, { platform: 'discord', chatId: e.chat.chatId }, 'dlg_1', e);
    if (!quote) throw new Error('no quote');
    expect(quoteBody(quote).slice(0, 2)).toEqual([
      '[Image "image.png"]',
      expect.stringMatching(/^Hi guys, I have a probably quite stupid question/) as string,
    ]);
    const read = renderMessage(stored(e, quote), { groupChat: true, agentName: 'Aria' });
    expect(read).toMatch(
      /^Philippe: > Replying to Sergiu S:\n> \[Image "image.png"\]\n> Hi guys, .*\nHey @Sergiu S , for this i would recommend/s,
    );
  });
});
