// prepareMessagesMedia: which attachments are processed before a prompt, what is stored, when
// a retry is scheduled — with the real processor against the fake OpenAI server and an
// in-memory stand-in for the attachment repository (the Mongo one is tested in integration).
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../doubles/fakeOpenAI.js';
import { MediaProcessor } from '../../src/media/processor.js';
import { isDue, prepareMessagesMedia, retryDelayMs, type PrepareMediaDeps } from '../../src/media/prepare.js';
import { createLogger } from '../../src/log.js';
import type { Attachment, AttachmentProcessing, Message } from '../../src/domain/model.js';
import { FakeMediaSource } from '../fixtures/media/fakeMediaSource.js';
import { pendingAttachment } from '../fixtures/media/attachments.js';
import { TINY_PNG } from '../fixtures/media/images.js';

/** Stores processing results like AttachmentRepo: by index, only from the expected attempt count. */
class MemoryAttachments {
  readonly messages = new Map<string, Message>();
  failWrites = false;
  saves = 0;

  add(m: Message): Message {
    this.messages.set(m._id, structuredClone(m));
    return m;
  }

  stored(id: string, i = 0): AttachmentProcessing {
    return this.messages.get(id)!.contentMeta!.attachments![i]!.processing;
  }

  saveProcessing(
    id: string,
    i: number,
    from: { fileRef: string; attempts: number },
    p: AttachmentProcessing,
  ): Promise<boolean> {
    this.saves++;
    if (this.failWrites) return Promise.reject(new Error('connection reset by FerretDB'));
    const att = this.messages.get(id)?.contentMeta?.attachments?.[i];
    if (!att || att.fileRef !== from.fileRef || att.processing.attempts !== from.attempts)
      return Promise.resolve(false);
    att.processing = structuredClone(p);
    return Promise.resolve(true);
  }

  processingOf(id: string, i: number): Promise<AttachmentProcessing | undefined> {
    return Promise.resolve(this.messages.get(id)?.contentMeta?.attachments?.[i]?.processing);
  }
}

function message(id: string, attachments: Attachment[], platformRef = true): Message {
  const at = new Date('2026-01-01T00:00:00Z');
  return {
    _id: id,
    dialogueId: 'dlg_1',
    sessionId: 'ses_1',
    turnId: 'trn_1',
    senderRole: 'human',
    senderId: 'hum_1',
    contentType: 'text',
    content: '',
    contentMeta: { attachments },
    mentions: [],
    visible: true,
    ...(platformRef ? { platformRef: { platform: 'telegram' as const, chatId: '42', messageId: id } } : {}),
    createdAt: at,
    updatedAt: at,
  };
}

describe('prepareMessagesMedia', () => {
  let fake: FakeOpenAI;
  let openai: OpenAI;
  let source: FakeMediaSource;
  let repo: MemoryAttachments;
  let scheduled: Array<{ messageId: string; at: Date }>;
  let deps: PrepareMediaDeps;
  const log = createLogger('silent');

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    openai = new OpenAI({ apiKey: 'test', baseURL: fake.baseURL, maxRetries: 0 });
  });
  beforeEach(() => {
    source = new FakeMediaSource('telegram');
    repo = new MemoryAttachments();
    scheduled = [];
    deps = {
      processor: new MediaProcessor({
        sources: { telegram: source },
        openai,
        visionModel: 'gpt-4o-mini',
        ffmpeg: 'ffmpeg',
        transcribeModel: 'whisper-1',
        maxBytes: 1024 * 1024,
        timeoutMs: 10_000,
        documentMaxChars: 8_000,
        log,
      }),
      attachments: repo,
      maxAttempts: 3,
      retryBaseMs: 60_000,
      retryMaxMs: 10 * 60_000,
      scheduleRetry: (messageId, at) => {
        scheduled.push({ messageId, at });
        return Promise.resolve();
      },
      log,
    };
  });
  afterEach(() => fake.reset());
  afterAll(() => fake.close());

  it('gives every pending attachment its text, stores it, and returns the updated messages', async () => {
    source.put('photo-1', 'a red bicycle against a wall').put('voice-1', 'this is where I parked it');
    const album = repo.add(
      message('msg_a', [pendingAttachment('image', 'photo-1'), pendingAttachment('voice', 'voice-1')]),
    );
    const plain = repo.add(message('msg_b', []));

    const [a, b] = await prepareMessagesMedia(deps, [album, plain]);

    expect(a!.contentMeta!.attachments!.map((x) => [x.processing.state, x.processing.via, x.processing.text])).toEqual([
      ['done', 'vision', 'An image showing a red bicycle against a wall.'],
      ['done', 'transcription', 'this is where I parked it'],
    ]);
    expect(repo.stored('msg_a', 0)).toMatchObject({
      state: 'done',
      attempts: 1,
      text: 'An image showing a red bicycle against a wall.',
    });
    expect(repo.stored('msg_a', 1)).toMatchObject({ state: 'done', attempts: 1, text: 'this is where I parked it' });
    expect(b).toBe(plain); // nothing to do: the same object back
    expect(scheduled).toEqual([]);
    // The caller's objects are not mutated: the returned ones carry the results.
    expect(album.contentMeta!.attachments![0]!.processing.state).toBe('pending');
  });

  it('leaves finished and unsupported attachments alone', async () => {
    const done: Attachment = {
      ...pendingAttachment('voice', 'voice-x'),
      processing: { state: 'done', attempts: 1, text: 'hi', via: 'transcription', updatedAt: new Date() },
    };
    const big: Attachment = {
      ...pendingAttachment('video', 'video-x'),
      processing: {
        state: 'unsupported',
        attempts: 1,
        error: { code: 'MEDIA_TOO_LARGE', message: 'x' },
        updatedAt: new Date(),
      },
    };
    const m = repo.add(message('msg_c', [done, big]));
    const [out] = await prepareMessagesMedia(deps, [m]);
    expect(out).toBe(m);
    expect(source.fetched).toEqual([]);
    expect(repo.saves).toBe(0);
  });

  it('a failed transcription is stored as failed with its error, retried when due, and ends done', async () => {
    source.put('voice-2', 'call mum at six');
    fake.enqueueTranscription({
      kind: 'error',
      status: 500,
      message: 'The server had an error processing your request.',
    });
    const m = repo.add(message('msg_d', [pendingAttachment('voice', 'voice-2', { duration: 3 })]));

    const [first] = await prepareMessagesMedia(deps, [m]);
    const failed = first!.contentMeta!.attachments![0]!.processing;
    expect(failed).toMatchObject({ state: 'failed', attempts: 1, error: { code: 'TRANSCRIPTION_FAILED' } });
    expect(failed.text).toBeUndefined();
    expect(failed.nextAttemptAt!.getTime() - failed.updatedAt.getTime()).toBe(60_000);
    expect(repo.stored('msg_d')).toMatchObject({
      state: 'failed',
      attempts: 1,
      error: { code: 'TRANSCRIPTION_FAILED' },
    });
    expect(scheduled).toEqual([{ messageId: 'msg_d', at: failed.nextAttemptAt }]);

    // The next prompt, before the retry is due, shows the failure and does not call again.
    const [early] = await prepareMessagesMedia(deps, [first!]);
    expect(early).toBe(first);
    expect(fake.transcriptionRequests).toHaveLength(1);

    // The retry, when due.
    const [retried] = await prepareMessagesMedia(deps, [first!], { now: failed.nextAttemptAt! });
    expect(retried!.contentMeta!.attachments![0]!.processing).toMatchObject({
      state: 'done',
      attempts: 2,
      text: 'call mum at six',
    });
    expect(repo.stored('msg_d')).toMatchObject({ state: 'done', attempts: 2, text: 'call mum at six' });
    expect(repo.stored('msg_d').error).toBeUndefined();
    expect(repo.stored('msg_d').nextAttemptAt).toBeUndefined();
    expect(scheduled).toHaveLength(1);
  });

  it('backs off exponentially and stops retrying after maxAttempts', async () => {
    source.put('photo-2', TINY_PNG);
    fake.enqueueVision(
      { kind: 'error', status: 502, message: 'bad gateway' },
      { kind: 'error', status: 502, message: 'bad gateway' },
      { kind: 'error', status: 502, message: 'bad gateway' },
    );
    let m = repo.add(message('msg_e', [pendingAttachment('image', 'photo-2')]));
    const delays: number[] = [];
    for (let i = 0; i < 3; i++) {
      const p = m.contentMeta!.attachments![0]!.processing;
      [m] = (await prepareMessagesMedia(deps, [m], { now: p.nextAttemptAt ?? new Date() })) as [Message];
      const after = m.contentMeta!.attachments![0]!.processing;
      expect(after).toMatchObject({ state: 'failed', attempts: i + 1, error: { code: 'VISION_FAILED' } });
      if (after.nextAttemptAt) delays.push(after.nextAttemptAt.getTime() - after.updatedAt.getTime());
    }
    expect(delays).toEqual([60_000, 120_000]); // the third failure is the last: no next attempt
    expect(scheduled).toHaveLength(2);
    expect(repo.stored('msg_e')).toMatchObject({ state: 'failed', attempts: 3 });

    // Exhausted: a later prompt shows the failure and calls nobody.
    await prepareMessagesMedia(deps, [m], { now: new Date(Date.now() + 3600_000) });
    expect(fake.visionRequests).toHaveLength(3);
  });

  it('takes the stored result when another worker processed the same attachment first', async () => {
    source.put('voice-3', 'my own transcription');
    const m = repo.add(message('msg_f', [pendingAttachment('voice', 'voice-3')]));
    // Meanwhile another worker finished it.
    repo.messages.get('msg_f')!.contentMeta!.attachments![0]!.processing = {
      state: 'done',
      attempts: 1,
      text: 'their transcription',
      via: 'transcription',
      updatedAt: new Date(),
    };

    const [out] = await prepareMessagesMedia(deps, [m]);
    expect(out!.contentMeta!.attachments![0]!.processing).toMatchObject({ state: 'done', text: 'their transcription' });
    expect(repo.stored('msg_f').text).toBe('their transcription');
  });

  it('still returns the text when storing it fails, and never throws', async () => {
    source.put('voice-4', 'stored or not');
    repo.failWrites = true;
    const m = repo.add(message('msg_g', [pendingAttachment('voice', 'voice-4')]));
    const [out] = await prepareMessagesMedia(deps, [m]);
    expect(out!.contentMeta!.attachments![0]!.processing).toMatchObject({ state: 'done', text: 'stored or not' });
    expect(repo.stored('msg_g').state).toBe('pending'); // so a later prompt tries again
  });

  it('uses the given platform for a message without a platform reference', async () => {
    source.put('voice-5', 'hello from nowhere');
    const m = repo.add(message('msg_h', [pendingAttachment('voice', 'voice-5')], false));
    const [skipped] = await prepareMessagesMedia(deps, [m]);
    expect(skipped).toBe(m);
    const [out] = await prepareMessagesMedia(deps, [m], { platform: 'telegram' });
    expect(out!.contentMeta!.attachments![0]!.processing).toMatchObject({ state: 'done', text: 'hello from nowhere' });
  });

  it('schedules one retry per message, at the earliest failed attachment', async () => {
    source.put('voice-6', 'one').put('voice-7', 'two');
    source.script({ kind: 'fail', message: 'ECONNRESET' }, { kind: 'fail', message: 'ECONNRESET' });
    const m = repo.add(
      message('msg_i', [pendingAttachment('voice', 'voice-6'), pendingAttachment('voice', 'voice-7')]),
    );
    const [out] = await prepareMessagesMedia(deps, [m]);
    const ps = out!.contentMeta!.attachments!.map((a) => a.processing);
    expect(ps.map((p) => [p.state, p.error?.code])).toEqual([
      ['failed', 'MEDIA_FETCH_FAILED'],
      ['failed', 'MEDIA_FETCH_FAILED'],
    ]);
    expect(scheduled).toHaveLength(1);
    expect(scheduled[0]!.at.getTime()).toBe(Math.min(...ps.map((p) => p.nextAttemptAt!.getTime())));
  });

  it('keeps a later retry alive when the earlier one succeeds', async () => {
    // Two failed items with different schedules; the job at the earlier time runs.
    const failed = (attempts: number, at: Date): AttachmentProcessing => ({
      state: 'failed',
      attempts,
      error: { code: 'MEDIA_FETCH_FAILED', message: 'x' },
      updatedAt: new Date(),
      nextAttemptAt: at,
    });
    const t1 = new Date(Date.now() + 1_000);
    const t2 = new Date(Date.now() + 600_000);
    source.put('voice-8', 'early one');
    const m = repo.add(
      message('msg_j', [
        { ...pendingAttachment('voice', 'voice-8'), processing: failed(1, t1) },
        { ...pendingAttachment('voice', 'voice-9'), processing: failed(2, t2) },
      ]),
    );
    const [out] = await prepareMessagesMedia(deps, [m], { now: t1 });
    expect(out!.contentMeta!.attachments!.map((a) => a.processing.state)).toEqual(['done', 'failed']);
    expect(scheduled).toEqual([{ messageId: 'msg_j', at: t2 }]);
  });
});

describe('retry rules', () => {
  it('doubles the delay from the base up to the cap', () => {
    expect([1, 2, 3, 4, 5, 6].map((n) => retryDelayMs(n, 1_000, 10_000))).toEqual([
      1_000, 2_000, 4_000, 8_000, 10_000, 10_000,
    ]);
  });

  it('processes pending attachments, and failed ones when due with attempts left', () => {
    const now = new Date('2026-01-01T00:10:00Z');
    const p = (o: Partial<AttachmentProcessing>): AttachmentProcessing => ({
      state: 'failed',
      attempts: 1,
      updatedAt: now,
      ...o,
    });
    expect(isDue(p({ state: 'pending', attempts: 0 }), 3, now)).toBe(true);
    expect(isDue(p({ nextAttemptAt: new Date('2026-01-01T00:09:59Z') }), 3, now)).toBe(true);
    expect(isDue(p({ nextAttemptAt: new Date('2026-01-01T00:10:01Z') }), 3, now)).toBe(false);
    expect(isDue(p({ attempts: 3 }), 3, now)).toBe(false);
    expect(isDue(p({ state: 'done' }), 3, now)).toBe(false);
    expect(isDue(p({ state: 'unsupported' }), 3, now)).toBe(false);
  });
});
