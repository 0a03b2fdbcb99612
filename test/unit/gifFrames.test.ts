// A GIF reads to the model by what it shows and by its name (issue 35, a real capture: Telegram's
// `animation` "happy-tears.mp4", a silent MP4). Before, it was a video whose sound was transcribed
// and it ended as "no recognisable speech". The frame is the platform's thumbnail when it sent
// one, else the first frame ffmpeg decodes from the file.
import { readFileSync } from 'node:fs';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { translateUpdate } from '../../adapters/telegram/translate.js';
import { inboundEventSchema, type InboundAttachment } from '../../src/ingest/inboundEvent.js';
import { MediaProcessor } from '../../src/media/processor.js';
import { renderAttachment } from '../../src/transcript/renderMessage.js';
import { createLogger } from '../../src/log.js';
import type { Attachment } from '../../src/domain/model.js';
import { describeFakeImage, startFakeOpenAI, type FakeOpenAI } from '../doubles/fakeOpenAI.js';
import { FakeMediaSource } from '../fixtures/media/fakeMediaSource.js';
import { TINY_PNG } from '../fixtures/media/images.js';

type Update = { message: { animation: Record<string, unknown> } };
const capture = (): Update =>
  JSON.parse(
    readFileSync(new URL('../fixtures/captures/tg-capture-animation_gif.json', import.meta.url), 'utf8'),
  ) as Update;
/** The capture's GIF as Telegram stores it: a silent 2 s MP4 (H.264, no audio track). */
const SILENT_MP4 = readFileSync(new URL('../fixtures/media/silent-gif.mp4', import.meta.url));
const FILE_ID = 'CgACAgQAAxkBAAMMZa4asptoz1nWSgFJcxBt5GWSN0oAAnMDAALEaiVSijnjxfNu6KA0BA';

function attachmentOf(update: Update): Attachment {
  const t = translateUpdate(update, { id: 7_000_000_001, username: 'fake_test_bot' });
  if (!t.ok) throw new Error(`not translated: ${t.reason}`);
  const ev = inboundEventSchema.parse(t.event);
  if (ev.kind !== 'message') throw new Error('not a message');
  expect(ev.attachments).toHaveLength(1); // the `document` copy for old clients is not a second file
  const a: InboundAttachment = ev.attachments[0]!;
  return { ...a, processing: { state: 'pending', attempts: 0, updatedAt: new Date() } };
}

describe('a GIF', () => {
  let fake: FakeOpenAI;
  let openai: OpenAI;
  beforeAll(async () => {
    fake = await startFakeOpenAI();
    openai = new OpenAI({ apiKey: 'test', baseURL: fake.baseURL, maxRetries: 0 });
  });
  afterEach(() => fake.reset());
  afterAll(() => fake.close());

  const processor = (source: FakeMediaSource, ffmpeg = 'ffmpeg') =>
    new MediaProcessor({
      sources: { telegram: source },
      openai,
      visionModel: 'gpt-4o-mini',
      ffmpeg,
      transcribeModel: 'whisper-1',
      maxBytes: 1024 * 1024,
      timeoutMs: 10_000,
      documentMaxChars: 8_000,
      log: createLogger('silent'),
    });

  it('is described by its first frame and read with its name, as Telegram sent it', async () => {
    const gif = attachmentOf(capture());
    expect(gif).toMatchObject({ kind: 'animation', fileName: 'happy-tears.mp4', duration: 2 });
    const source = new FakeMediaSource().put(FILE_ID, SILENT_MP4, { mime: 'video/mp4' });

    const done = await processor(source).process(gif, 'telegram');

    expect(done).toMatchObject({ state: 'done', via: 'vision' });
    expect(fake.transcriptionRequests).toHaveLength(0);
    const [frame] = fake.visionRequests[0]!.images;
    expect(frame?.mime).toBe('image/png');
    expect(renderAttachment({ ...gif, processing: done })).toBe(`[GIF "happy-tears.mp4": ${describeFakeImage(frame)}]`);
  });

  it('is described by the thumbnail Telegram sends with it, without downloading the video', async () => {
    const update = capture();
    const thumb = { file_id: 'AAMCBAADGQEthumb', file_unique_id: 'AQADthumb', file_size: 77, width: 2, height: 2 };
    update.message.animation.thumbnail = thumb;
    const source = new FakeMediaSource().put(thumb.file_id, TINY_PNG);

    const done = await processor(source).process(attachmentOf(update), 'telegram');

    expect(done).toMatchObject({ state: 'done', via: 'vision' });
    expect(source.fetched).toEqual([thumb.file_id]);
    expect(fake.visionRequests[0]!.images[0]!.bytes!.equals(TINY_PNG)).toBe(true);
  });

  it('keeps its name when no frame can be had', async () => {
    const gif = attachmentOf(capture());
    const source = new FakeMediaSource().put(FILE_ID, SILENT_MP4, { mime: 'video/mp4' });

    const r = await processor(source, '/nonexistent/ffmpeg').process(gif, 'telegram');

    expect(r).toMatchObject({ state: 'unsupported', error: { code: 'MEDIA_NO_FRAME' } });
    expect(fake.transcriptionRequests).toHaveLength(0);
    expect(renderAttachment({ ...gif, processing: r })).toMatch(/^\[GIF "happy-tears\.mp4" — .*MEDIA_NO_FRAME/);
  });
});
