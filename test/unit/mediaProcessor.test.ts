// One attempt per attachment kind, against the fake OpenAI server (real `openai` client) and an
// in-process MediaSource: what text the context gets, or which visible error instead.
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { describeFakeImage, startFakeOpenAI, type FakeOpenAI } from '../doubles/fakeOpenAI.js';
import { MediaProcessor, type MediaProcessorOptions } from '../../src/media/processor.js';
import { createLogger } from '../../src/log.js';
import type { Attachment } from '../../src/domain/model.js';
import { FakeMediaSource } from '../fixtures/media/fakeMediaSource.js';
import { pendingAttachment } from '../fixtures/media/attachments.js';
import { chinesePdf, englishPdf } from '../fixtures/media/pdfs.js';
import { TINY_PNG } from '../fixtures/media/images.js';
import { TEST_BOT_TOKEN } from '../support/testEnv.js';

describe('MediaProcessor', () => {
  let fake: FakeOpenAI;
  let openai: OpenAI;
  let source: FakeMediaSource;
  const log = createLogger('silent');

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    openai = new OpenAI({ apiKey: 'test', baseURL: fake.baseURL, maxRetries: 0 }); // retries would eat script steps
  });
  afterEach(() => fake.reset());
  afterAll(() => fake.close());

  function processor(o: Partial<MediaProcessorOptions> = {}): MediaProcessor {
    source = new FakeMediaSource('telegram');
    return new MediaProcessor({
      sources: { telegram: source },
      openai,
      visionModel: 'gpt-4o-mini',
      ffmpeg: 'ffmpeg',
      transcribeModel: 'whisper-1',
      maxBytes: 64 * 1024,
      timeoutMs: 10_000,
      documentMaxChars: 8_000,
      log,
      ...o,
    });
  }

  describe('images', () => {
    it('describes an image with the vision model, sending the bytes as a data URL, without touching the reply script', async () => {
      const p = processor();
      source.put('photo-1', TINY_PNG); // Telegram says nothing useful about the type
      fake.enqueue({ kind: 'reply', chunks: ['the main reply'] });

      const r = await p.process(pendingAttachment('image', 'photo-1', { width: 2, height: 2 }), 'telegram');

      expect(r).toMatchObject({ state: 'done', via: 'vision', attempts: 1 });
      // The fake describes real image bytes by type, size and hash: this is that image's description.
      expect(r.text).toBe(describeFakeImage({ url: '', mime: 'image/png', bytes: TINY_PNG }));
      expect(r.text).toMatch(/^An image \(image\/png, 77 bytes, sha256 [0-9a-f]{12}\)\.$/);
      expect(r.error).toBeUndefined();
      const sent = fake.visionRequests[0]!;
      expect(sent.body.model).toBe('gpt-4o-mini');
      expect(sent.body.stream ?? false).toBe(false);
      expect(sent.images).toHaveLength(1);
      expect(sent.images[0]!.mime).toBe('image/png');
      expect(sent.images[0]!.bytes!.equals(TINY_PNG)).toBe(true);
      expect(JSON.stringify(sent.body.messages[0])).toMatch(/readable text/);
      // The conversation's script step is still there for the conversation.
      expect(fake.requests).toHaveLength(0);
      const main = await openai.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
      expect(main.choices[0]?.message.content).toBe('the main reply');
    });

    it('keeps the visible text the model read', async () => {
      const p = processor();
      source.put('photo-2', TINY_PNG, { mime: 'image/png' });
      fake.enqueueVision({ kind: 'reply', chunks: ['A hand-written note on a fridge.\nText: "买牛奶 / buy milk"'] });
      const r = await p.process(pendingAttachment('image', 'photo-2'), 'telegram');
      expect(r).toMatchObject({
        state: 'done',
        via: 'vision',
        text: 'A hand-written note on a fridge.\nText: "买牛奶 / buy milk"',
      });
    });

    it('fails visibly with VISION_FAILED when the model errors', async () => {
      const p = processor();
      source.put('photo-3', TINY_PNG);
      fake.enqueueVision({ kind: 'error', status: 500, message: 'vision backend is down' });
      const r = await p.process(pendingAttachment('image', 'photo-3'), 'telegram');
      expect(r).toMatchObject({ state: 'failed', attempts: 1, error: { code: 'VISION_FAILED' } });
      expect(r.error!.message).toContain('vision backend is down');
      expect(r.text).toBeUndefined();
    });

    it('treats an empty description as a failure, not as an empty image', async () => {
      const p = processor();
      source.put('photo-4', TINY_PNG);
      fake.enqueueVision({ kind: 'reply', chunks: ['  ', '\n'] });
      const r = await p.process(pendingAttachment('image', 'photo-4'), 'telegram');
      expect(r).toMatchObject({
        state: 'failed',
        error: { code: 'VISION_FAILED', message: 'the vision model returned no description' },
      });
    });

    it('ends a hanging vision call at the attempt timeout', async () => {
      const p = processor({ timeoutMs: 300 });
      source.put('photo-5', TINY_PNG);
      fake.enqueueVision({ kind: 'hang' });
      const r = await p.process(pendingAttachment('image', 'photo-5'), 'telegram');
      expect(r).toMatchObject({ state: 'failed', error: { code: 'VISION_FAILED', message: 'timed out after 300 ms' } });
    });
  });

  describe('voice, audio and video', () => {
    it('transcribes a Telegram voice note, renaming .oga (which OpenAI rejects) to .ogg', async () => {
      const p = processor();
      source.put('voice-1', 'remind me to buy milk tomorrow', { fileName: 'file_7.oga' });
      const r = await p.process(pendingAttachment('voice', 'voice-1', { mime: 'audio/ogg', duration: 2 }), 'telegram');

      expect(r).toMatchObject({
        state: 'done',
        via: 'transcription',
        text: 'remind me to buy milk tomorrow',
        attempts: 1,
      });
      const sent = fake.transcriptionRequests[0]!;
      expect(sent).toMatchObject({ model: 'whisper-1', fileName: 'file_7.ogg' });
      expect(sent.bytes.toString('utf8')).toBe('remind me to buy milk tomorrow');
    });

    it.each([
      ['audio', { fileName: 'song.mp3', mime: 'audio/mpeg' }, 'song.mp3'],
      ['video_note', {}, 'video_note.mp4'],
      ['video', { mime: 'video/mp4' }, 'video.mp4'],
    ] as const)('transcribes %s, uploaded under a name the endpoint accepts', async (kind, meta, uploadedAs) => {
      const p = processor();
      source.put(`${kind}-1`, `spoken words in a ${kind}`);
      const r = await p.process(pendingAttachment(kind, `${kind}-1`, meta), 'telegram');
      expect(r).toMatchObject({ state: 'done', via: 'transcription', text: `spoken words in a ${kind}` });
      expect(fake.transcriptionRequests[0]!.fileName).toBe(uploadedAs);
    });

    it('stores silence as an empty transcription, not as a failure', async () => {
      const p = processor();
      source.put('voice-2', 'ambient noise');
      fake.enqueueTranscription({ kind: 'text', text: '' });
      const r = await p.process(pendingAttachment('voice', 'voice-2'), 'telegram');
      expect(r).toMatchObject({ state: 'done', via: 'transcription', text: '' });
      expect(r.error).toBeUndefined();
    });

    it('fails with TRANSCRIPTION_FAILED, and the next attempt succeeds', async () => {
      const p = processor();
      source.put('voice-3', 'see you at eight');
      fake.enqueueTranscription({ kind: 'error', status: 503, message: 'transcription overloaded' });
      const att = pendingAttachment('voice', 'voice-3');

      const first = await p.process(att, 'telegram');
      expect(first).toMatchObject({ state: 'failed', attempts: 1, error: { code: 'TRANSCRIPTION_FAILED' } });
      expect(first.error!.message).toContain('transcription overloaded');

      const second = await p.process({ ...att, processing: first }, 'telegram');
      expect(second).toMatchObject({ state: 'done', attempts: 2, text: 'see you at eight', via: 'transcription' });
      expect(second.error).toBeUndefined();
      expect(fake.transcriptionRequests).toHaveLength(2);
    });
  });

  describe('documents', () => {
    const doc = (fileRef: string, extra: Partial<Attachment> = {}) => pendingAttachment('document', fileRef, extra);

    it('reads a plain-text file (by MIME type)', async () => {
      const p = processor();
      source.put('doc-txt', 'Shopping list\r\n- eggs\r\n- 豆腐\r\n');
      const r = await p.process(doc('doc-txt', { fileName: 'list', mime: 'text/plain' }), 'telegram');
      expect(r).toMatchObject({ state: 'done', via: 'plain', text: 'Shopping list\n- eggs\n- 豆腐' });
    });

    it('reads a Markdown file (by extension, whatever the declared type)', async () => {
      const p = processor();
      source.put('doc-md', '# Plan\n\n* step **one**\n* step two\n');
      const r = await p.process(doc('doc-md', { fileName: 'plan.md', mime: 'application/octet-stream' }), 'telegram');
      expect(r).toMatchObject({ state: 'done', via: 'plain', text: '# Plan\n\n* step **one**\n* step two' });
    });

    it('reads a UTF-16 text file with a byte-order mark', async () => {
      const p = processor();
      source.put('doc-u16', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('notes: 周末见', 'utf16le')]));
      const r = await p.process(doc('doc-u16', { fileName: 'notes.txt' }), 'telegram');
      expect(r).toMatchObject({ state: 'done', text: 'notes: 周末见' });
    });

    it('extracts the text of an English PDF, all pages', async () => {
      const p = processor();
      source.put(
        'doc-pdf',
        await englishPdf([['Quarterly report', 'Revenue grew by 12 percent.'], ['Page two: next steps']]),
      );
      const r = await p.process(doc('doc-pdf', { fileName: 'report.pdf', mime: 'application/pdf' }), 'telegram');
      expect(r).toMatchObject({ state: 'done', via: 'pdf' });
      expect(r.text).toBe('Quarterly report\nRevenue grew by 12 percent.\nPage two: next steps');
    });

    it('extracts the text of a Chinese PDF (Identity-H font with a ToUnicode map)', async () => {
      const p = processor();
      source.put('doc-zh', await chinesePdf(['会议纪要', '下周三下午三点在三楼开会。']));
      const r = await p.process(doc('doc-zh', { fileName: '纪要.pdf' }), 'telegram');
      expect(r).toMatchObject({ state: 'done', via: 'pdf', text: '会议纪要\n下周三下午三点在三楼开会。' });
    });

    it('truncates long text to DOCUMENT_MAX_CHARS with a visible marker', async () => {
      const p = processor({ documentMaxChars: 100 });
      source.put('doc-long', '字'.repeat(250));
      const r = await p.process(doc('doc-long', { fileName: 'long.txt' }), 'telegram');
      expect(r.state).toBe('done');
      expect(r.text).toBe(`${'字'.repeat(100)}\n[… truncated: first 100 of 250 characters]`);
    });

    it('records other types as unsupported without downloading them', async () => {
      const p = processor();
      const r = await p.process(
        doc('doc-docx', {
          fileName: 'cv.docx',
          mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
          size: 20_000,
        }),
        'telegram',
      );
      expect(r).toMatchObject({ state: 'unsupported', attempts: 1, error: { code: 'MEDIA_UNSUPPORTED_TYPE' } });
      expect(r.error!.message).toContain('wordprocessingml');
      expect(source.fetched).toEqual([]);
    });

    it('fails with DOCUMENT_UNREADABLE on a broken PDF', async () => {
      const p = processor();
      source.put('doc-bad', '%PDF-1.7\nthis is not really a pdf');
      const r = await p.process(doc('doc-bad', { fileName: 'broken.pdf' }), 'telegram');
      expect(r).toMatchObject({ state: 'failed', error: { code: 'DOCUMENT_UNREADABLE' } });
    });

    it('says a PDF without a text layer cannot be read (no retries)', async () => {
      const p = processor();
      source.put('doc-scan', await englishPdf([[]]));
      const r = await p.process(doc('doc-scan', { fileName: 'scan.pdf' }), 'telegram');
      expect(r).toMatchObject({ state: 'unsupported', error: { code: 'DOCUMENT_NO_TEXT' } });
    });
  });

  describe('stickers', () => {
    it('names a sticker from its emoji and set, without downloading it', async () => {
      const p = processor();
      const r = await p.process(
        pendingAttachment('sticker', 'sticker-1', { emoji: '😂', setName: 'HotCherry' }),
        'telegram',
      );
      expect(r).toMatchObject({ state: 'done', via: 'sticker', text: '😂 (sticker set "HotCherry")' });
      expect(source.fetched).toEqual([]);
    });
  });

  describe('limits and download failures', () => {
    it('does not download a file whose declared size is over the limit', async () => {
      const p = processor({ maxBytes: 1024 });
      const r = await p.process(pendingAttachment('voice', 'voice-big', { size: 5 * 1024 * 1024 }), 'telegram');
      expect(r).toMatchObject({
        state: 'unsupported',
        error: { code: 'MEDIA_TOO_LARGE', message: 'the file has 5242880 bytes; the limit is 1024' },
      });
      expect(source.fetched).toEqual([]);
      expect(fake.transcriptionRequests).toHaveLength(0);
    });

    it('stops a download that turns out to be over the limit', async () => {
      const p = processor({ maxBytes: 1024 });
      source.put('photo-big', Buffer.alloc(4096, 1));
      const r = await p.process(pendingAttachment('image', 'photo-big'), 'telegram');
      expect(r).toMatchObject({ state: 'unsupported', error: { code: 'MEDIA_TOO_LARGE' } });
      expect(fake.visionRequests).toHaveLength(0);
    });

    it('fails with MEDIA_FETCH_FAILED on a download error, without leaking the bot token', async () => {
      const p = processor();
      source.script({
        kind: 'fail',
        message: `GET https://api.telegram.org/file/bot${TEST_BOT_TOKEN}/voice/file_1.oga: socket hang up`,
      });
      const r = await p.process(pendingAttachment('voice', 'voice-4'), 'telegram');
      expect(r).toMatchObject({ state: 'failed', attempts: 1, error: { code: 'MEDIA_FETCH_FAILED' } });
      expect(r.error!.message).toContain('socket hang up');
      expect(r.error!.message).not.toContain(TEST_BOT_TOKEN);
      expect(fake.transcriptionRequests).toHaveLength(0);
    });

    it('ends a hanging download at the attempt timeout', async () => {
      const p = processor({ timeoutMs: 300 });
      source.script({ kind: 'hang' });
      const r = await p.process(pendingAttachment('document', 'doc-slow', { fileName: 'a.txt' }), 'telegram');
      expect(r).toMatchObject({
        state: 'failed',
        error: { code: 'MEDIA_FETCH_FAILED', message: 'timed out after 300 ms' },
      });
    });

    it('fails when no media source serves the platform', async () => {
      const p = processor();
      const r = await p.process(pendingAttachment('image', 'https://cdn.discordapp.com/a.png'), 'discord');
      expect(r).toMatchObject({
        state: 'failed',
        error: { code: 'MEDIA_FETCH_FAILED', message: 'no media source for discord' },
      });
    });
  });
});
