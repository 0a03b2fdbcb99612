// Voice, audio, video notes and videos → text through the OpenAI audio transcription API.
// Silence is an answer (empty text), not a failure.
import type OpenAI from 'openai';
import { toFile } from 'openai';
import { MediaError, describeError } from './errors.js';

export async function transcribe(
  openai: OpenAI,
  o: { model: string; data: Buffer; fileName: string; mime?: string; signal: AbortSignal },
): Promise<string> {
  try {
    const file = await toFile(o.data, o.fileName, o.mime ? { type: o.mime } : undefined);
    const result = await openai.audio.transcriptions.create({ file, model: o.model }, { signal: o.signal });
    return result.text.trim();
  } catch (err) {
    throw new MediaError('TRANSCRIPTION_FAILED', describeError(err), { cause: err });
  }
}
