// Media sent on Telegram reaches the model as text, end to end: the real grammY bot reads the
// update from the fake Bot API, the worker downloads the file through getFile, the fake OpenAI
// transcribes or describes it, and the prompt carries the result — or, when that fails, a clear
// placeholder while the attachment is retried in the background until it succeeds.
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.js';
import { eventually } from '../support/testEnv.js';
import { PLACES, documentUpdate, photoUpdate, voiceUpdate } from '../fixtures/telegramUpdates.js';
import { TINY_PNG } from '../fixtures/media/images.js';
import { englishPdf } from '../fixtures/media/pdfs.js';

const DM = 880001;

describe('Telegram media to the model', () => {
  let h: Harness;
  beforeEach(async () => {
    // Long enough that the failed state can be read before the retry, short enough for a test.
    h = await startHarness({ MEDIA_RETRY_BASE_MS: '2500' });
  });
  afterEach(async () => {
    await h.stop();
  });

  const promptOf = (i = -1) => JSON.stringify(h.llm.requests.at(i)?.body.messages ?? []);
  const shown = (chat: number, text: string, what: string) =>
    eventually(() => Promise.resolve(h.tg.sentText(chat).includes(text)), 20_000, what);

  it('transcribes a voice message in a DM and answers what was said', async () => {
    const file = h.tg.addFile(Buffer.from('remind me to buy oat milk tomorrow'), { mime: 'audio/ogg' });
    h.llm.enqueue({ kind: 'reply', chunks: ['I will remind you about the oat milk.'] });
    h.tg.pushUpdate(voiceUpdate({ updateId: 1, userId: DM, file, duration: 3 }));
    await shown(DM, 'I will remind you about the oat milk.', 'reply to voice');
    expect(promptOf()).toContain('transcribed: \\"remind me to buy oat milk tomorrow\\"');
    expect(h.llm.transcriptionRequests).toHaveLength(1);
    const m = await h.app.store.c.messages.findOne({ senderRole: 'human' });
    expect(m?.contentType).toBe('audio');
    expect(m?.contentMeta?.attachments?.[0]?.processing).toMatchObject({
      state: 'done',
      via: 'transcription',
      attempts: 1,
    });
  });

  it('describes a photo sent to a group with a caption that mentions the bot', async () => {
    const file = h.tg.addFile(TINY_PNG, { mime: 'image/png' });
    h.llm.enqueue({ kind: 'reply', chunks: ['That is a tiny picture.'] });
    h.tg.pushUpdate(
      photoUpdate({
        updateId: 2,
        userId: 42,
        firstName: 'Lin',
        place: PLACES.supergroup,
        caption: '@fake_test_bot what is in this picture?',
        file,
      }),
    );
    await shown(PLACES.supergroup.chatId, 'That is a tiny picture.', 'group photo reply');
    expect(h.llm.visionRequests).toHaveLength(1);
    const prompt = promptOf();
    expect(prompt).toContain('Lin: [Image: ');
    expect(prompt).toContain('what is in this picture?');
  });

  it('reads the text of a PDF document', async () => {
    const pdf = await englishPdf([['Quarterly report', 'Revenue grew 12 percent in spring']]);
    const file = h.tg.addFile(pdf, { mime: 'application/pdf' });
    h.llm.enqueue({ kind: 'reply', chunks: ['Nice growth.'] });
    h.tg.pushUpdate(
      documentUpdate({
        updateId: 3,
        userId: DM,
        file,
        fileName: 'q2.pdf',
        mime: 'application/pdf',
        caption: 'summary please',
      }),
    );
    await shown(DM, 'Nice growth.', 'reply to pdf');
    expect(promptOf()).toContain('Revenue grew 12 percent in spring');
  });

  it('describes a GIF by what it shows and keeps its name (a real capture: a silent MP4)', async () => {
    const update = JSON.parse(
      readFileSync(new URL('../fixtures/captures/tg-capture-animation_gif.json', import.meta.url), 'utf8'),
    ) as { message: { chat: { id: number }; animation: { file_id: string; file_unique_id: string } } };
    const { file_id, file_unique_id } = update.message.animation;
    h.tg.addFile(readFileSync(new URL('../fixtures/media/silent-gif.mp4', import.meta.url)), {
      file_id,
      file_unique_id,
      mime: 'video/mp4',
    });
    h.llm.enqueue({ kind: 'reply', chunks: ['Tears of joy!'] });
    h.tg.pushUpdate(update);
    await shown(update.message.chat.id, 'Tears of joy!', 'reply to a GIF');
    expect(h.llm.transcriptionRequests).toHaveLength(0);
    expect(h.llm.visionRequests[0]?.images[0]?.mime).toBe('image/png');
    expect(promptOf()).toContain('[GIF \\"happy-tears.mp4\\": An image (image/png');
  });

  it('answers with a clear placeholder when transcription fails, then retries until the text is stored', async () => {
    const file = h.tg.addFile(Buffer.from('the meeting moved to Friday'), { mime: 'audio/ogg' });
    h.llm.enqueue({ kind: 'reply', chunks: ['Sorry, I could not hear that one.'] });
    // The openai client itself retries a 500 twice; the third failure ends this attempt.
    const down = { kind: 'error', status: 500, message: 'upstream down' } as const;
    h.llm.enqueueTranscription(down, down, down);
    h.tg.pushUpdate(voiceUpdate({ updateId: 4, userId: DM, file, duration: 2 }));
    await shown(DM, 'Sorry, I could not hear that one.', 'reply despite failure');
    expect(promptOf()).toContain('transcription failed (TRANSCRIPTION_FAILED)');

    // The failure is visible to an operator over the API, then the background retry fills it in.
    const human = (await h.app.store.c.messages.findOne({ senderRole: 'human' }))!;
    const query = `query ($id: ID!) { message(id: $id) { contentType attachments { kind state attempts errorCode text nextAttemptAt duration } } }`;
    type Q = {
      message: {
        contentType: string;
        attachments: Array<{
          kind: string;
          state: string;
          attempts: number;
          errorCode: string | null;
          text: string | null;
          nextAttemptAt: string | null;
          duration: number | null;
        }>;
      };
    };
    const seen = await h.gql<Q>(query, { id: human._id });
    expect(seen.body.errors).toBeUndefined();
    const first = seen.body.data!.message.attachments[0]!;
    expect(first).toMatchObject({
      kind: 'voice',
      state: 'failed',
      attempts: 1,
      errorCode: 'TRANSCRIPTION_FAILED',
      text: null,
      duration: 2,
    });
    expect(Date.parse(first.nextAttemptAt!)).toBeGreaterThan(Date.now() - 5_000);
    const done = await eventually(
      async () => {
        const m = await h.app.store.c.messages.findOne({ senderRole: 'human' });
        const p = m?.contentMeta?.attachments?.[0]?.processing;
        return p?.state === 'done' ? p : undefined;
      },
      20_000,
      'transcription retried',
    );
    expect(done).toMatchObject({ text: 'the meeting moved to Friday', attempts: 2 });
    const after = await h.gql<Q>(query, { id: human._id });
    expect(after.body.data!.message.attachments[0]).toMatchObject({
      state: 'done',
      attempts: 2,
      errorCode: null,
      text: 'the meeting moved to Friday',
    });
  });
});
