// DiscordMediaSource against the fake CDN: bytes of an attachment URL, the size limit enforced
// with and without a declared length, expired signed URLs renewed through the REST API, and
// URLs outside Discord's CDN refused.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiscordMediaError, DiscordMediaSource } from '../../adapters/discord/media.js';
import { MediaTooLargeError } from '../../src/media/mediaSource.js';
import { startFakeDiscord, type FakeDiscord } from '../doubles/fakeDiscord.js';

describe('DiscordMediaSource', () => {
  let fake: FakeDiscord;
  const big = Buffer.alloc(300_000, 7);
  beforeAll(async () => {
    fake = await startFakeDiscord();
  });
  afterAll(() => fake.close());

  it('downloads an attachment with its type and name', async () => {
    const a = fake.registerAttachment({
      channelId: fake.world.generalId,
      filename: 'hello world.txt',
      contentType: 'text/plain; charset=utf-8',
      data: Buffer.from('hi there'),
    });
    const got = await new DiscordMediaSource({ apiRoot: fake.apiRoot }).fetch(a.url, { maxBytes: 1024 });
    expect(got).toEqual({ data: Buffer.from('hi there'), mime: 'text/plain', fileName: 'hello world.txt' });
  });

  it('refuses a file whose declared size is over the limit', async () => {
    const a = fake.registerAttachment({ channelId: fake.world.generalId, filename: 'big.bin', data: big });
    const err: unknown = await new DiscordMediaSource({ apiRoot: fake.apiRoot })
      .fetch(a.url, { maxBytes: 100_000 })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MediaTooLargeError);
    expect(err).toMatchObject({ size: big.length, maxBytes: 100_000 });
  });

  it('stops reading a file without a declared size once it passes the limit', async () => {
    const a = fake.registerAttachment({
      channelId: fake.world.generalId,
      filename: 'stream.bin',
      data: big,
      chunked: true,
    });
    const err: unknown = await new DiscordMediaSource({ apiRoot: fake.apiRoot })
      .fetch(a.url, { maxBytes: 100_000 })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MediaTooLargeError);
    const { size } = err as MediaTooLargeError;
    expect(size).toBeGreaterThan(100_000);
    expect(size).toBeLessThan(big.length);
    // Under the limit, the same streamed file arrives whole.
    const whole = await new DiscordMediaSource({ apiRoot: fake.apiRoot }).fetch(a.url, { maxBytes: big.length });
    expect(whole.data.equals(big)).toBe(true);
  });

  it('renews an expired signed URL through the API when it has a token', async () => {
    const a = fake.registerAttachment({
      channelId: fake.world.generalId,
      filename: 'old.ogg',
      contentType: 'audio/ogg',
      data: Buffer.from('opus'),
    });
    fake.expireAttachmentUrls();
    const withoutToken: unknown = await new DiscordMediaSource({ apiRoot: fake.apiRoot })
      .fetch(a.url, { maxBytes: 1024 })
      .catch((e: unknown) => e);
    expect(withoutToken).toBeInstanceOf(DiscordMediaError);
    expect(withoutToken).toMatchObject({ status: 404 });

    const got = await new DiscordMediaSource({ apiRoot: fake.apiRoot, token: fake.token }).fetch(a.url, {
      maxBytes: 1024,
    });
    expect(got.data.toString()).toBe('opus');
    expect(fake.requestsTo('POST /attachments/refresh-urls').at(-1)).toMatchObject({
      status: 200,
      body: { attachment_urls: [a.url] },
    });
  });

  it('refuses URLs that are not on the CDN, without fetching them', async () => {
    let hits = 0;
    const other = createServer((_req, res) => (hits++, res.end('secret')));
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(other.address() as AddressInfo).port}/internal`;
      const err: unknown = await new DiscordMediaSource({ apiRoot: fake.apiRoot })
        .fetch(url, { maxBytes: 1024 })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DiscordMediaError);
      expect(String(err)).toMatch(/not on Discord's CDN/);
      expect(hits).toBe(0);
    } finally {
      other.close();
    }
  });
});
