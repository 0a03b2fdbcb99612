// Attachment processing on the real servers: results stored by index in FerretDB, a failed
// transcription retried by the delayed BullMQ job until the message carries its text — with
// nobody writing in the chat again.
import { Redis } from 'ioredis';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Worker } from 'bullmq';
import { startFakeOpenAI, type FakeOpenAI } from '../doubles/fakeOpenAI.js';
import { eventually, testEnv } from '../support/testEnv.js';
import { Store } from '../../src/store/store.js';
import { createLogger } from '../../src/log.js';
import { MediaProcessor } from '../../src/media/processor.js';
import { prepareMessagesMedia, type PrepareMediaDeps } from '../../src/media/prepare.js';
import {
  MediaRetryQueue,
  startMediaRetryWorker,
  sweepMediaRetries,
  type MediaRetryJob,
} from '../../jobs/mediaRetry.js';
import type { Attachment, AttachmentProcessing, Message } from '../../src/domain/model.js';
import { newId } from '../../src/domain/ids.js';
import { FakeMediaSource } from '../fixtures/media/fakeMediaSource.js';
import { pendingAttachment } from '../fixtures/media/attachments.js';

const env = testEnv();
const log = createLogger(env.LOG_LEVEL);

function voiceMessage(attachments: Attachment[]): Message {
  const at = new Date();
  const id = newId('msg', at);
  return {
    _id: id,
    dialogueId: 'dlg_media',
    sessionId: 'ses_media',
    turnId: 'trn_media',
    senderRole: 'human',
    senderId: 'hum_media',
    contentType: 'audio',
    content: '',
    contentMeta: { attachments },
    mentions: [],
    visible: true,
    platformRef: { platform: 'telegram', chatId: '777', messageId: id },
    createdAt: at,
    updatedAt: at,
  };
}

describe('media processing on FerretDB and Redis', () => {
  let store: Store;
  let redis: Redis;
  let fake: FakeOpenAI;
  let openai: OpenAI;
  let source: FakeMediaSource;
  let queue: MediaRetryQueue;
  let worker: Worker<MediaRetryJob> | undefined;
  let deps: PrepareMediaDeps;

  beforeAll(async () => {
    store = await Store.connect(env.MONGODB_URI!, env.MONGODB_DB);
    redis = new Redis(env.REDIS_URL, { maxRetriesPerRequest: null });
    fake = await startFakeOpenAI();
    openai = new OpenAI({ apiKey: 'test', baseURL: fake.baseURL, maxRetries: 0 });
    queue = new MediaRetryQueue(redis, env.QUEUE_PREFIX);
  });
  beforeEach(() => {
    source = new FakeMediaSource('telegram');
    deps = {
      processor: new MediaProcessor({
        sources: { telegram: source },
        openai,
        visionModel: env.VISION_MODEL,
        ffmpeg: env.FFMPEG_PATH,
        transcribeModel: env.TRANSCRIBE_MODEL,
        maxBytes: env.MEDIA_MAX_BYTES,
        timeoutMs: env.MEDIA_TIMEOUT_MS,
        documentMaxChars: env.DOCUMENT_MAX_CHARS,
        log,
      }),
      attachments: store.attachments,
      maxAttempts: env.MEDIA_MAX_ATTEMPTS,
      retryBaseMs: 300,
      scheduleRetry: (messageId, at) => queue.retryAt(messageId, at),
      log,
    };
  });
  afterEach(async () => {
    await worker?.close();
    worker = undefined;
    fake.reset();
  });
  afterAll(async () => {
    await queue.queue.obliterate({ force: true });
    await queue.close();
    await redis.quit();
    await store.db.dropDatabase();
    await store.close();
    await fake.close();
  });

  const storedProcessing = async (id: string, i = 0): Promise<AttachmentProcessing | undefined> =>
    (await store.messages.get(id))?.contentMeta?.attachments?.[i]?.processing;

  it('a failing voice note is stored failed (attempts 1), then the retry job gives it its transcription', async () => {
    worker = startMediaRetryWorker({ connection: redis, prefix: env.QUEUE_PREFIX, store, deps, log });
    source.put('voice-file-1', 'meet me at the station at noon', { fileName: 'file_3.oga' });
    fake.enqueueTranscription({
      kind: 'error',
      status: 500,
      message: 'The server had an error while processing your request.',
    });
    const m = voiceMessage([pendingAttachment('voice', 'voice-file-1', { duration: 4 })]);
    await store.messages.insertOnce(m);

    const [prepared] = await prepareMessagesMedia(deps, [m]);

    // What the prompt built now sees: a visible failure, not an empty message.
    expect(prepared!.contentMeta!.attachments![0]!.processing).toMatchObject({
      state: 'failed',
      attempts: 1,
      error: { code: 'TRANSCRIPTION_FAILED' },
    });
    const failed = await storedProcessing(m._id);
    expect(failed).toMatchObject({ state: 'failed', attempts: 1, error: { code: 'TRANSCRIPTION_FAILED' } });
    expect(failed!.error!.message).toContain('The server had an error');
    expect(failed!.nextAttemptAt).toBeInstanceOf(Date);

    // Nobody writes again; the delayed job retries on its own.
    const done = await eventually(
      async () => {
        const p = await storedProcessing(m._id);
        return p?.state === 'done' ? p : undefined;
      },
      20_000,
      'the retried transcription',
    );
    expect(done).toMatchObject({
      state: 'done',
      attempts: 2,
      via: 'transcription',
      text: 'meet me at the station at noon',
    });
    expect(done.error).toBeUndefined();
    expect(done.nextAttemptAt).toBeUndefined();
    expect(fake.transcriptionRequests.map((r) => r.fileName)).toEqual(['file_3.ogg', 'file_3.ogg']);
    // The rest of the message is untouched.
    const stored = await store.messages.get(m._id);
    expect(stored).toMatchObject({
      contentType: 'audio',
      content: '',
      senderId: 'hum_media',
      contentMeta: { attachments: [{ kind: 'voice', duration: 4, fileRef: 'voice-file-1' }] },
    });
  });

  it('scheduling the same retry twice adds one job', async () => {
    const at = new Date(Date.now() + 60_000);
    const delayedFor = async (id: string) =>
      (await queue.queue.getJobs(['delayed'])).filter((j) => j.data.messageId === id);
    await queue.retryAt('msg_twice', at);
    await queue.retryAt('msg_twice', new Date(at.getTime()));
    expect(await delayedFor('msg_twice')).toHaveLength(1);
    await queue.retryAt('msg_twice', new Date(at.getTime() + 120_000)); // the next failure's retry is a new job
    expect(await delayedFor('msg_twice')).toHaveLength(2);
  });

  it('stores each album item by its index, and never lets a stale result overwrite a newer one', async () => {
    const m = voiceMessage([
      pendingAttachment('image', 'photo-a'),
      pendingAttachment('voice', 'voice-b'),
      pendingAttachment('document', 'doc-c', { fileName: 'x.txt' }),
    ]);
    await store.messages.insertOnce(m);
    const done: AttachmentProcessing = {
      state: 'done',
      attempts: 1,
      text: 'second item',
      via: 'transcription',
      updatedAt: new Date(),
    };

    expect(await store.attachments.saveProcessing(m._id, 1, { fileRef: 'voice-b', attempts: 0 }, done)).toBe(true);
    const after = await store.messages.get(m._id);
    expect(after!.contentMeta!.attachments!.map((a) => a.processing.state)).toEqual(['pending', 'done', 'pending']);
    expect(after!.contentMeta!.attachments![1]).toMatchObject({
      kind: 'voice',
      fileRef: 'voice-b',
      processing: { text: 'second item', attempts: 1 },
    });

    // A writer that started from attempts 0 (a slower worker) no longer matches.
    const stale: AttachmentProcessing = {
      state: 'failed',
      attempts: 1,
      error: { code: 'TRANSCRIPTION_FAILED', message: 'late' },
      updatedAt: new Date(),
    };
    expect(await store.attachments.saveProcessing(m._id, 1, { fileRef: 'voice-b', attempts: 0 }, stale)).toBe(false);
    // Nor does one that thinks another file is at that index.
    expect(await store.attachments.saveProcessing(m._id, 0, { fileRef: 'voice-b', attempts: 0 }, stale)).toBe(false);
    expect(await store.attachments.processingOf(m._id, 1)).toMatchObject({ state: 'done', text: 'second item' });
    expect(await store.attachments.processingOf(m._id, 0)).toMatchObject({ state: 'pending' });
  });

  it('finds messages whose failed attachment is due, and the sweep re-enqueues a lost retry', async () => {
    source.put('voice-lost', 'the job for this one was lost');
    const now = new Date();
    const failedAt = (ms: number, attempts = 1): AttachmentProcessing => ({
      state: 'failed',
      attempts,
      error: { code: 'TRANSCRIPTION_FAILED', message: 'x' },
      updatedAt: now,
      nextAttemptAt: new Date(now.getTime() + ms),
    });
    const due = voiceMessage([
      pendingAttachment('image', 'ok'),
      { ...pendingAttachment('voice', 'voice-lost'), processing: failedAt(-1_000) },
    ]);
    const later = voiceMessage([{ ...pendingAttachment('voice', 'voice-later'), processing: failedAt(3600_000) }]);
    const exhausted = voiceMessage([
      { ...pendingAttachment('voice', 'voice-dead'), processing: failedAt(-1_000, env.MEDIA_MAX_ATTEMPTS) },
    ]);
    for (const m of [due, later, exhausted]) await store.messages.insertOnce(m);

    const found = await store.attachments.dueForRetry(now, env.MEDIA_MAX_ATTEMPTS);
    expect(found.map((m) => m._id)).toEqual([due._id]);

    worker = startMediaRetryWorker({ connection: redis, prefix: env.QUEUE_PREFIX, store, deps, log });
    expect(await sweepMediaRetries(store, queue, env.MEDIA_MAX_ATTEMPTS, now)).toBe(1);
    const p = await eventually(
      async () => {
        const x = await storedProcessing(due._id, 1);
        return x?.state === 'done' ? x : undefined;
      },
      20_000,
      'the swept retry',
    );
    expect(p).toMatchObject({ attempts: 2, text: 'the job for this one was lost' });
    // The sweep's run processed the whole message, including its pending image.
    // (Both items are processed in parallel, so the image's result may land a moment later.)
    const image = await eventually(
      async () => {
        const x = await storedProcessing(due._id, 0);
        return x?.state === 'pending' ? undefined : x;
      },
      20_000,
      'the image result',
    );
    expect(image).toMatchObject({ state: 'failed', error: { code: 'MEDIA_FETCH_FAILED' } });
    expect(await storedProcessing(later._id)).toMatchObject({ state: 'failed', attempts: 1 });
  });
});
