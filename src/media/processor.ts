// One attempt at turning one attachment into text (seed 000's MultiModalInputParser, per
// kind): images and a GIF's frame are described, sound is transcribed, documents are read,
// stickers are named.
// Never throws: every outcome, including failures, is an AttachmentProcessing to store.
import type OpenAI from 'openai';
import type { Logger } from 'pino';
import type { Attachment, AttachmentProcessing, AttachmentState, Platform } from '../domain/model.js';
import { MediaTooLargeError, type FetchedMedia, type MediaSources } from './mediaSource.js';
import { MediaError, describeError, type MediaErrorCode } from './errors.js';
import { audioUploadName, documentReader, imageMime } from './formats.js';
import { describeImage, describeImageVia } from './vision.js';
import type { ProviderChain } from '../llm/providerChain.js';
import { stillFrame } from './frame.js';
import { transcribe } from './transcribe.js';
import { readDocument } from './documents.js';
import { stickerText } from './sticker.js';

export interface AttachmentProcessor {
  /** One attempt; `attempts` of the result is one more than the attachment's. */
  process(att: Attachment, platform: Platform): Promise<AttachmentProcessing>;
}

export interface MediaProcessorOptions {
  sources: MediaSources;
  /** Transcription's server (TRANSCRIBE_BASE_URL), and vision's when no chain is given. */
  openai: OpenAI;
  /** Vision's providers: VISION_BASE_URL (or the chat model's server), then LLM_FALLBACKS. */
  vision?: ProviderChain;
  visionModel: string;
  /** The ffmpeg binary that takes a GIF's frame when the platform sent no thumbnail. */
  ffmpeg: string;
  transcribeModel: string;
  /** Larger files are not downloaded: `unsupported` with MEDIA_TOO_LARGE. */
  maxBytes: number;
  /** Bound of one whole attempt (download + model call or parsing). */
  timeoutMs: number;
  documentMaxChars: number;
  log: Logger;
}

type Outcome =
  | { state: 'done'; text: string; via: string }
  | { state: Exclude<AttachmentState, 'done' | 'pending'>; error: { code: MediaErrorCode; message: string } };

/** Which code a failure (or the timeout) gets at each step of an attempt. */
interface Attempt {
  signal: AbortSignal;
  step: MediaErrorCode;
}

const SOUND_KINDS = new Set<Attachment['kind']>(['voice', 'audio', 'video_note', 'video']);

export class MediaProcessor implements AttachmentProcessor {
  constructor(private readonly o: MediaProcessorOptions) {}

  async process(att: Attachment, platform: Platform): Promise<AttachmentProcessing> {
    const controller = new AbortController();
    const attempt: Attempt = { signal: controller.signal, step: 'MEDIA_FETCH_FAILED' };
    let timer: NodeJS.Timeout | undefined;
    // Racing the work as well as aborting it: PDF parsing and a source that ignores the
    // signal cannot be interrupted, but the attempt still ends on time.
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new MediaError(attempt.step, `timed out after ${this.o.timeoutMs} ms`));
      }, this.o.timeoutMs);
    });
    let outcome: Outcome;
    try {
      outcome = await Promise.race([this.run(att, platform, attempt), timeout]);
    } catch (err) {
      const e = err instanceof MediaError ? err : new MediaError(attempt.step, describeError(err), { cause: err });
      outcome = { state: e.final ? 'unsupported' : 'failed', error: { code: e.code, message: e.message } };
    } finally {
      clearTimeout(timer);
    }
    if (outcome.state === 'failed') {
      this.o.log.warn({ kind: att.kind, fileRef: att.fileRef, error: outcome.error }, 'attachment processing failed');
    }
    return { ...outcome, attempts: att.processing.attempts + 1, updatedAt: new Date() };
  }

  private async run(att: Attachment, platform: Platform, attempt: Attempt): Promise<Outcome> {
    if (att.kind === 'sticker') return { state: 'done', text: stickerText(att), via: 'sticker' };

    const reader = att.kind === 'document' ? documentReader(att) : undefined;
    if (att.kind === 'document' && !reader) {
      const type = att.mime ?? (att.fileName ? `"${att.fileName}"` : 'unknown type');
      throw new MediaError('MEDIA_UNSUPPORTED_TYPE', `documents of type ${type} are not read`);
    }

    if (att.kind === 'animation') return this.describeFrame(att, platform, attempt);
    const media = await this.download(att, platform, attempt);
    if (att.kind === 'image') {
      const mime = imageMime(media.data, media.mime, att.mime);
      return this.describe({ data: media.data, mime }, attempt);
    }
    if (SOUND_KINDS.has(att.kind)) {
      attempt.step = 'TRANSCRIPTION_FAILED';
      const text = await transcribe(this.o.openai, {
        model: this.o.transcribeModel,
        data: media.data,
        fileName: audioUploadName(att, media.data, media),
        mime: media.mime ?? att.mime,
        signal: attempt.signal,
      });
      return { state: 'done', text, via: 'transcription' };
    }
    if (reader) {
      attempt.step = 'DOCUMENT_UNREADABLE';
      return { state: 'done', text: await readDocument(reader, media.data, this.o.documentMaxChars), via: reader };
    }
    throw new MediaError('MEDIA_UNSUPPORTED_TYPE', `attachments of kind ${String(att.kind)} are not read`);
  }

  /** A GIF by what it shows: the platform's thumbnail when it sent one, else its first frame. */
  private async describeFrame(att: Attachment, platform: Platform, attempt: Attempt): Promise<Outcome> {
    const media = await this.download({ ...att, fileRef: att.frameRef ?? att.fileRef }, platform, attempt);
    attempt.step = 'MEDIA_NO_FRAME';
    const frame = await stillFrame(media.data, { ffmpeg: this.o.ffmpeg, signal: attempt.signal });
    return this.describe(frame, attempt);
  }

  private async describe(image: { data: Buffer; mime: string }, attempt: Attempt): Promise<Outcome> {
    attempt.step = 'VISION_FAILED';
    const ask = { model: this.o.visionModel, ...image, signal: attempt.signal };
    const text = this.o.vision ? await describeImageVia(this.o.vision, ask) : await describeImage(this.o.openai, ask);
    return { state: 'done', text, via: 'vision' };
  }

  private async download(att: Attachment, platform: Platform, attempt: Attempt): Promise<FetchedMedia> {
    const { maxBytes } = this.o;
    const tooLarge = (size: number) =>
      new MediaError('MEDIA_TOO_LARGE', `the file has ${size} bytes; the limit is ${maxBytes}`);
    if (att.size !== undefined && att.size > maxBytes) throw tooLarge(att.size);
    const source = this.o.sources[platform];
    if (!source) throw new MediaError('MEDIA_FETCH_FAILED', `no media source for ${platform}`);
    attempt.step = 'MEDIA_FETCH_FAILED';
    let media: FetchedMedia;
    try {
      media = await source.fetch(att.fileRef, { maxBytes, signal: attempt.signal });
    } catch (err) {
      if (err instanceof MediaTooLargeError) throw tooLarge(err.size);
      throw new MediaError('MEDIA_FETCH_FAILED', describeError(err), { cause: err });
    }
    if (media.data.length > maxBytes) throw tooLarge(media.data.length);
    return media;
  }
}
