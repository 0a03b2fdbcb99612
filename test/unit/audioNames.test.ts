// An audio file reads to the model by the name people see (issue 35): a Telegram track's
// performer and title (pyTelegramBotAPI's own fixture: "eternnoir – pyTelegram"), else its file
// name (a Discord voice upload `audio.ogg`).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { translateUpdate } from '../../adapters/telegram/translate.js';
import { inboundEventSchema } from '../../src/ingest/inboundEvent.js';
import { renderAttachment } from '../../src/transcript/renderMessage.js';

const capture = JSON.parse(
  readFileSync(new URL('../fixtures/captures/tg-pytba-json_message_audio.json', import.meta.url), 'utf8'),
) as unknown;
const done = (text: string) => ({ state: 'done' as const, text, attempts: 1, updatedAt: new Date() });

describe('audio by its name', () => {
  it('keeps a Telegram track’s performer and title, and the model reads them', () => {
    const t = translateUpdate(capture, { id: 7_000_000_001, username: 'fake_test_bot' });
    if (!t.ok) throw new Error(`not translated: ${t.reason}`);
    const ev = inboundEventSchema.parse(t.event);
    if (ev.kind !== 'message') throw new Error('not a message');
    const [a] = ev.attachments;
    expect(a).toMatchObject({ kind: 'audio', title: 'pyTelegram', performer: 'eternnoir', mime: 'audio/mpeg' });
    const read = renderAttachment({ ...a!, processing: done('') });
    expect(read).toBe('[Audio "eternnoir – pyTelegram", 1 s with no recognisable speech]');
  });

  it('falls back to the file name, and names nothing for a voice message', () => {
    const base = { fileRef: 'https://cdn.example/a', sourceMessageId: '1', duration: 4, processing: done('hello') };
    expect(renderAttachment({ ...base, kind: 'audio', fileName: 'audio.ogg' })).toBe(
      '[Audio "audio.ogg", 4 s, transcribed: "hello"]',
    );
    expect(renderAttachment({ ...base, kind: 'voice', fileName: 'voice.ogg' })).toBe(
      '[Voice message, 4 s, transcribed: "hello"]',
    );
  });
});
