// Stable codes for why an attachment has no text. They are stored on the attachment
// (processing.error.code) so the context, the API and operators can tell the cases apart.
import { maskSecrets } from '../log.js';

export const MEDIA_ERROR_CODES = [
  /** Over MEDIA_MAX_BYTES: kept as name/type/size only (state `unsupported`, not retried). */
  'MEDIA_TOO_LARGE',
  /** A document type we do not read (state `unsupported`). */
  'MEDIA_UNSUPPORTED_TYPE',
  /** A PDF without a text layer, e.g. a scan (state `unsupported`). */
  'DOCUMENT_NO_TEXT',
  /** No still frame of a GIF could be had: no thumbnail, and ffmpeg is missing or cannot decode it (state `unsupported`). */
  'MEDIA_NO_FRAME',
  /** The bytes could not be downloaded from the platform (retried). */
  'MEDIA_FETCH_FAILED',
  /** The transcription call failed or timed out (retried). */
  'TRANSCRIPTION_FAILED',
  /** The vision call failed, timed out or said nothing (retried). */
  'VISION_FAILED',
  /** The document could not be parsed or decoded (retried). */
  'DOCUMENT_UNREADABLE',
] as const;
export type MediaErrorCode = (typeof MEDIA_ERROR_CODES)[number];

/** Codes after which another attempt cannot help: the attachment ends `unsupported`. */
const FINAL: ReadonlySet<MediaErrorCode> = new Set([
  'MEDIA_TOO_LARGE',
  'MEDIA_UNSUPPORTED_TYPE',
  'DOCUMENT_NO_TEXT',
  'MEDIA_NO_FRAME',
]);

export class MediaError extends Error {
  override readonly name = 'MediaError';
  constructor(
    readonly code: MediaErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  get final(): boolean {
    return FINAL.has(this.code);
  }
}

/**
 * A short, storable description of a failure. Masked: a download error can carry a Bot API
 * file URL, which contains the bot token.
 */
export function describeError(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return maskSecrets(text).slice(0, 500);
}
