import { describe, expect, it } from 'vitest';
import { renderAttachment, renderMessage } from '../../src/transcript/renderMessage.js';
import type { Attachment, AttachmentProcessing, Message } from '../../src/domain/model.js';

const at = new Date('2026-01-01T00:00:00Z');
const done = (text: string, via = 'x'): AttachmentProcessing => ({
  state: 'done',
  attempts: 1,
  text,
  via,
  updatedAt: at,
});
const failed = (code: string): AttachmentProcessing => ({
  state: 'failed',
  attempts: 1,
  error: { code, message: 'boom' },
  updatedAt: at,
});
const att = (
  kind: Attachment['kind'],
  processing: AttachmentProcessing,
  extra: Partial<Attachment> = {},
): Attachment => ({ kind, fileRef: 'f', sourceMessageId: '1', processing, ...extra });
const msg = (patch: Partial<Message>): Message => ({
  _id: 'm',
  dialogueId: 'd',
  sessionId: 's',
  senderRole: 'human',
  senderId: 'h',
  contentType: 'text',
  content: '',
  mentions: [],
  visible: true,
  createdAt: at,
  updatedAt: at,
  ...patch,
});
const dm = { groupChat: false, agentName: 'Rainbow' };

describe('renderMessage (multimodal parser)', () => {
  it('renders an image with its caption as description then caption', () => {
    const m = msg({
      contentType: 'image',
      content: 'look at this',
      contentMeta: { attachments: [att('image', done('a cat asleep on a keyboard', 'vision'))] },
    });
    expect(renderMessage(m, dm)).toBe('[Image: a cat asleep on a keyboard]\nlook at this');
  });

  it('renders a voice message as its transcription with duration', () => {
    const m = msg({
      contentType: 'audio',
      contentMeta: { attachments: [att('voice', done('明天见', 'transcription'), { duration: 3.2 })] },
    });
    expect(renderMessage(m, dm)).toBe('[Voice message, 3 s, transcribed: "明天见"]');
  });

  it('gives a failed transcription a clear placeholder, never an empty message', () => {
    const m = msg({
      contentType: 'audio',
      contentMeta: { attachments: [att('voice', failed('TRANSCRIPTION_FAILED'), { duration: 5 })] },
    });
    const text = renderMessage(m, dm);
    expect(text).toContain('transcription failed (TRANSCRIPTION_FAILED)');
    expect(text.trim().length).toBeGreaterThan(10);
  });

  it('says so while media is still pending', () => {
    expect(renderAttachment(att('image', { state: 'pending', attempts: 0, updatedAt: at }))).toBe(
      '[Image — description not ready yet]',
    );
  });

  it('renders a document with its extracted text, and an unreadable one by name, type and size', () => {
    expect(
      renderAttachment(
        att('document', done('Hello PDF', 'pdf'), { fileName: 'a.pdf', mime: 'application/pdf', size: 2048 }),
      ),
    ).toBe('[File "a.pdf" (application/pdf, 2 KB), its text:\nHello PDF\n]');
    expect(
      renderAttachment(
        att(
          'document',
          { state: 'unsupported', attempts: 0, updatedAt: at },
          { fileName: 'x.zip', mime: 'application/zip', size: 3 * 1024 * 1024 },
        ),
      ),
    ).toBe('[File "x.zip" (application/zip, 3.0 MB) — its contents cannot be read here]');
  });

  it('renders a sticker by its emoji and set', () => {
    expect(renderAttachment(att('sticker', done('😀', 'sticker'), { emoji: '😀', setName: 'Cats' }))).toBe(
      '[Sticker 😀 from "Cats"]',
    );
  });

  it('inlines a quoted message with its source', () => {
    const m = msg({
      contentType: 'quote_reply',
      content: 'why?',
      contentMeta: { quote: { platformMessageId: '9', text: 'the sky is green', senderRole: 'ai' } },
    });
    expect(renderMessage(m, dm)).toBe('> Replying to Rainbow (you):\n> the sky is green\nwhy?');
    const partial = msg({
      content: 'this',
      contentMeta: { quote: { platformMessageId: '9', text: 'green', senderName: 'Bob', partial: true } },
    });
    expect(renderMessage(partial, dm)).toBe('> Quoting part of Bob:\n> green\nthis');
  });

  it('prefixes the sender in groups only', () => {
    const m = msg({ content: 'hi all', contentMeta: { senderName: 'Alice' } });
    expect(renderMessage(m, { groupChat: true, agentName: 'Rainbow' })).toBe('Alice: hi all');
    expect(renderMessage(m, dm)).toBe('hi all');
  });

  it('leaves AI messages as they were said', () => {
    expect(renderMessage(msg({ senderRole: 'ai', content: '**hello**' }), dm)).toBe('**hello**');
  });
});
