// The fake OpenAI server's media endpoints speak the real wire format: the unmodified `openai`
// client uploads multipart transcriptions and sends image parts, and reads the answers back.
import OpenAI, { toFile } from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../doubles/fakeOpenAI.js';
import { TINY_PNG } from '../fixtures/media/images.js';

describe('fakeOpenAI media endpoints with the real openai client', () => {
  let fake: FakeOpenAI;
  let client: OpenAI;
  beforeAll(async () => {
    fake = await startFakeOpenAI();
    client = new OpenAI({ apiKey: 'test', baseURL: fake.baseURL, maxRetries: 0 });
  });
  afterEach(() => fake.reset());
  afterAll(() => fake.close());

  it('transcribes a multipart upload as its UTF-8 bytes and records every field', async () => {
    const file = await toFile(Buffer.from('你好，明天见', 'utf8'), 'note.ogg', { type: 'audio/ogg' });
    const r = await client.audio.transcriptions.create({
      file,
      model: 'whisper-1',
      language: 'zh',
      prompt: 'names: 小明',
    });
    expect(r.text).toBe('你好，明天见');
    expect(fake.transcriptionRequests).toHaveLength(1);
    const sent = fake.transcriptionRequests[0]!;
    expect(sent).toMatchObject({
      model: 'whisper-1',
      fileName: 'note.ogg',
      mime: 'audio/ogg',
      fields: { language: 'zh', prompt: 'names: 小明' },
    });
    expect(sent.bytes.toString('utf8')).toBe('你好，明天见');
  });

  it('answers the text and verbose_json formats like OpenAI', async () => {
    fake.enqueueTranscription({ kind: 'text', text: 'plain answer' }, { kind: 'text', text: 'verbose answer' });
    const file = () => toFile(Buffer.from('x'), 'a.mp3');
    const plain = await client.audio.transcriptions.create({
      file: await file(),
      model: 'whisper-1',
      response_format: 'text',
    });
    expect(plain).toBe('plain answer');
    const verbose = await client.audio.transcriptions.create({
      file: await file(),
      model: 'whisper-1',
      response_format: 'verbose_json',
    });
    expect(verbose).toMatchObject({ text: 'verbose answer', language: 'english' });
  });

  it('rejects a file extension the real endpoint does not decode, and plays scripted errors', async () => {
    const bad = client.audio.transcriptions.create({
      file: await toFile(Buffer.from('x'), 'file_1.oga'),
      model: 'whisper-1',
    });
    const err: unknown = await bad.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect((err as Error).message).toContain('Invalid file format');

    fake.enqueueTranscription({ kind: 'error', status: 429, message: 'Rate limit reached for whisper-1' });
    const limited = client.audio.transcriptions.create({
      file: await toFile(Buffer.from('x'), 'a.wav'),
      model: 'whisper-1',
    });
    await expect(limited).rejects.toBeInstanceOf(OpenAI.RateLimitError);
  });

  it('hangs on request, so the client times out', async () => {
    fake.enqueueTranscription({ kind: 'hang' });
    const impatient = new OpenAI({ apiKey: 'test', baseURL: fake.baseURL, maxRetries: 0, timeout: 150 });
    const call = impatient.audio.transcriptions.create({
      file: await toFile(Buffer.from('x'), 'a.wav'),
      model: 'whisper-1',
    });
    await expect(call).rejects.toBeInstanceOf(OpenAI.APIConnectionTimeoutError);
  });

  it('answers image requests from the vision script, streamed or not, and leaves the reply script to the conversation', async () => {
    fake.enqueue({ kind: 'reply', chunks: ['conversation reply'] });
    fake.enqueueVision({ kind: 'reply', chunks: ['A tiny ', 'checkerboard.'] });
    const url = `data:image/png;base64,${TINY_PNG.toString('base64')}`;
    const imageMessage = {
      role: 'user' as const,
      content: [
        { type: 'text' as const, text: 'what is this?' },
        { type: 'image_url' as const, image_url: { url } },
      ],
    };

    const stream = await client.chat.completions.create({ model: 'gpt-4o', messages: [imageMessage], stream: true });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe('A tiny checkerboard.');

    // Script empty: a deterministic description of the bytes.
    const again = await client.chat.completions.create({ model: 'gpt-4o', messages: [imageMessage] });
    expect(again.choices[0]?.message.content).toMatch(/^An image \(image\/png, 77 bytes, sha256 [0-9a-f]{12}\)\.$/);

    expect(fake.visionRequests).toHaveLength(2);
    expect(fake.visionRequests[0]!.images[0]!.bytes!.equals(TINY_PNG)).toBe(true);
    expect(fake.requests).toHaveLength(0);
    const reply = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
    expect(reply.choices[0]?.message.content).toBe('conversation reply');
    expect(fake.requests).toHaveLength(1);
  });

  it('forgets media scripts and recordings on reset', async () => {
    fake.enqueueTranscription({ kind: 'text', text: 'scripted' });
    fake.enqueueVision({ kind: 'error', status: 500, message: 'boom' });
    fake.reset();
    const r = await client.audio.transcriptions.create({
      file: await toFile(Buffer.from('default'), 'a.ogg'),
      model: 'whisper-1',
    });
    expect(r.text).toBe('default');
    const url = `data:text/plain;base64,${Buffer.from('a sunny beach').toString('base64')}`;
    const v = await client.chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url } }] }],
    });
    expect(v.choices[0]?.message.content).toBe('An image showing a sunny beach.');
  });
});
