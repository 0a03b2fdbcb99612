// Attachment bytes through TelegramMediaSource against the fake Bot API: getFile, then the file
// download route, with the size limit enforced before anything large is read.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GrammyError } from 'grammy';
import { TelegramMediaSource } from '../../adapters/telegram/media.js';
import { MediaTooLargeError } from '../../src/media/mediaSource.js';
import { PlatformCallError } from '../../src/delivery/outbound.js';
import { startFakeTelegram, type FakeTelegram } from '../doubles/fakeTelegram.js';
import { TEST_BOT_TOKEN } from '../support/testEnv.js';

const MB = 1024 * 1024;

describe('TelegramMediaSource', () => {
  let tg: FakeTelegram;
  let media: TelegramMediaSource;
  beforeEach(async () => {
    tg = await startFakeTelegram();
    media = new TelegramMediaSource(TEST_BOT_TOKEN, tg.apiRoot);
  });
  afterEach(async () => {
    await tg.close();
  });

  it('downloads the file a file_id names', async () => {
    const bytes = Buffer.concat([Buffer.from('OggS'), Buffer.alloc(5000, 7)]);
    const file = tg.addFile(bytes, { mime: 'audio/ogg', file_path: 'voice/file_12.oga' });
    const got = await media.fetch(file.file_id, { maxBytes: MB });
    expect(got.data.equals(bytes)).toBe(true);
    expect(got.fileName).toBe('file_12.oga');
    expect(got.mime).toBeUndefined(); // the file server says octet-stream, which tells nothing
    expect(tg.callsOf('getFile')[0]!.params).toMatchObject({ file_id: file.file_id });
    expect(tg.downloads).toEqual(['voice/file_12.oga']);
  });

  it('refuses a file over the limit without downloading it', async () => {
    const file = tg.addFile(Buffer.alloc(300_000), { mime: 'image/jpeg' });
    const err = await media.fetch(file.file_id, { maxBytes: 100_000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MediaTooLargeError);
    expect(err).toMatchObject({ size: 300_000, maxBytes: 100_000 });
    expect(tg.downloads).toEqual([]);
  });

  it('enforces the limit on the download itself when getFile does not say the size', async () => {
    const file = tg.addFile(Buffer.alloc(300_000), { reportSize: false });
    await expect(media.fetch(file.file_id, { maxBytes: 100_000 })).rejects.toMatchObject({
      name: 'MediaTooLargeError',
      size: 300_000,
    });
    const small = tg.addFile(Buffer.alloc(1000, 1), { reportSize: false });
    expect((await media.fetch(small.file_id, { maxBytes: 100_000 })).data).toHaveLength(1000);
  });

  it('maps the Bot API\'s own 20 MB download limit ("file is too big") to MediaTooLargeError', async () => {
    const file = tg.addFile(Buffer.alloc(20 * MB + 1), { mime: 'video/mp4' });
    const err = await media.fetch(file.file_id, { maxBytes: 50 * MB }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MediaTooLargeError);
    expect((err as MediaTooLargeError).size).toBeGreaterThan(20 * MB);
    expect(tg.downloads).toEqual([]);
  });

  it("a 429 on getFile is a PlatformRateLimitedError; an unknown file is Telegram's 400", async () => {
    const file = tg.addFile(Buffer.from('x'));
    tg.failNext('getFile', { error_code: 429, description: 'Too Many Requests: retry after 3', retry_after: 3 });
    await expect(media.fetch(file.file_id, { maxBytes: MB })).rejects.toMatchObject({
      name: 'PlatformRateLimitedError',
      retryAfterMs: 3000,
    });
    const err = await media.fetch('no-such-file', { maxBytes: MB }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PlatformCallError);
    expect(err).toMatchObject({ status: 400, message: 'Bad Request: invalid file_id' });
    expect((err as PlatformCallError).cause).toBeInstanceOf(GrammyError);
  });

  it('stops when the caller aborts', async () => {
    const file = tg.addFile(Buffer.alloc(1000));
    const ac = new AbortController();
    ac.abort();
    await expect(media.fetch(file.file_id, { maxBytes: MB, signal: ac.signal })).rejects.toThrow();
    expect(tg.downloads).toEqual([]);
  });
});
