// The port through which the core fetches an attachment's bytes. Each adapter implements it
// with its platform's file API (Telegram getFile + file download, Discord attachment URLs).
import type { Platform } from '../domain/model.js';

export interface FetchedMedia {
  data: Buffer;
  mime?: string;
  fileName?: string;
}

export interface MediaSource {
  readonly platform: Platform;
  /** Rejects with MediaTooLargeError above `maxBytes` rather than buffering the whole file. */
  fetch(fileRef: string, o: { maxBytes: number; signal?: AbortSignal }): Promise<FetchedMedia>;
}

export type MediaSources = Partial<Record<Platform, MediaSource>>;

export class MediaTooLargeError extends Error {
  override readonly name = 'MediaTooLargeError';
  constructor(
    readonly size: number,
    readonly maxBytes: number,
  ) {
    super(`file of ${size} bytes is over the ${maxBytes}-byte limit`);
  }
}
