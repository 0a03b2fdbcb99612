// A reply to a file without a caption (issue 35, a real capture: "/maskara" answering a forwarded
// GIF in a supergroup): the quote says what the replied-to message carried instead of "(a
// message without text)" — from the platform's copy when the original is not stored, and with
// its description when it is.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { translateUpdate } from '../../adapters/telegram/translate.js';
import { inboundEventSchema } from '../../src/ingest/inboundEvent.js';
import { quoteBody, renderMessage } from '../../src/transcript/renderMessage.js';
import type { Message, Quote } from '../../src/domain/model.js';

const capture = JSON.parse(
  readFileSync(new URL('../fixtures/captures/tg-capture-reply_to_forwarded_gif.json', import.meta.url), 'utf8'),
) as unknown;
const BOT = { id: 7_000_000_001, username: 'fake_test_bot' };

const human = (quote: Quote): Message =>
  ({
    _id: 'msg_1',
    dialogueId: 'dlg_1',
    sessionId: 'ses_1',
    turnId: 'trn_1',
    senderRole: 'human',
    senderId: 'hum_1',
    contentType: 'text',
    content: '/maskara',
    contentMeta: { quote, senderName: 'Nemo' },
    mentions: [],
    visible: true,
    createdAt: new Date(),
    updatedAt: new Date(),
  }) as unknown as Message;

describe('a reply to a captionless file', () => {
  it('carries what the replied-to message held, as Telegram sent it', () => {
    const t = translateUpdate(capture, BOT);
    if (!t.ok) throw new Error(`not translated: ${t.reason}`);
    const ev = inboundEventSchema.parse(t.event);
    if (ev.kind !== 'message') throw new Error('not a message');
    expect(ev.replyTo).toMatchObject({ platformMessageId: '835', media: [{ kind: 'animation', fileName: '1.mp4' }] });
    expect(ev.replyTo?.text).toBeUndefined();
  });

  it('reads to the model as that file, not as a message without text', () => {
    const quote: Quote = {
      platformMessageId: '835',
      senderName: 'Latia',
      text: '',
      media: [{ kind: 'animation', fileName: '1.mp4' }],
    };
    const read = renderMessage(human(quote), { groupChat: true, agentName: 'Aria' });
    expect(read).toBe('Nemo: > Replying to Latia:\n> [GIF "1.mp4"]\n/maskara');
    expect(read).not.toContain('without text');
  });

  it('names what a stored original showed, beside its caption', () => {
    const quote: Quote = {
      platformMessageId: '9',
      text: '周末的湖',
      media: [{ kind: 'image', text: 'a calm lake at dawn, two boats' }],
    };
    expect(quoteBody(quote)).toEqual(['[Image: a calm lake at dawn, two boats]', '周末的湖']);
    expect(quoteBody({ platformMessageId: '10', text: '  ' })).toEqual(['(a message without text)']);
  });
});
