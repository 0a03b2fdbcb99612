// Attachment bytes from Telegram: getFile names the file, then it is downloaded from
// `${apiRoot}/file/bot<token>/<file_path>`. The size limit is enforced before and while reading,
// so an oversized file is never buffered. The download URL carries the token: it is never logged
// or put in an error.
import { Api, GrammyError } from 'grammy';
import { MediaTooLargeError, type FetchedMedia, type MediaSource } from '../../src/media/mediaSource.js';
import { rethrowAsPortError } from './outbound.js';

/** The Bot API serves files up to 20 MB; bigger ones answer 400 "file is too big". */
export const TELEGRAM_DOWNLOAD_LIMIT_BYTES = 20 * 1024 * 1024;

export class TelegramMediaError extends Error {
  override readonly name = 'TelegramMediaError';
  readonly code = 'MEDIA_FETCH_FAILED';
}

export class TelegramMediaSource implements MediaSource {
  readonly platform = 'telegram' as const;
  private readonly api: Api;

  constructor(
    private readonly token: string,
    private readonly apiRoot: string,
  ) {
    this.api = new Api(token, { apiRoot });
  }

  async fetch(fileRef: string, o: { maxBytes: number; signal?: AbortSignal }): Promise<FetchedMedia> {
    const file = await this.api.getFile(fileRef, o.signal as Parameters<Api['getFile']>[1]).catch((err: unknown) => {
      if (err instanceof GrammyError && err.error_code === 400 && /file is too big/i.test(err.description)) {
        // Telegram only says it is over its own limit, so that limit is the size we know.
        throw new MediaTooLargeError(TELEGRAM_DOWNLOAD_LIMIT_BYTES + 1, o.maxBytes);
      }
      return rethrowAsPortError(err);
    });
    if (file.file_size !== undefined && file.file_size > o.maxBytes)
      throw new MediaTooLargeError(file.file_size, o.maxBytes);
    if (!file.file_path) throw new TelegramMediaError('getFile returned no file_path');

    const url = `${this.apiRoot.replace(/\/+$/, '')}/file/bot${this.token}/${file.file_path}`;
    let res: Response;
    try {
      res = await fetch(url, o.signal ? { signal: o.signal } : {});
    } catch (err) {
      if (o.signal?.aborted) throw err;
      throw new TelegramMediaError(`file download failed: ${err instanceof Error ? err.message : 'network error'}`);
    }
    if (!res.ok || !res.body) {
      await res.body?.cancel();
      throw new TelegramMediaError(`file download answered HTTP ${res.status}`);
    }
    const declared = Number(res.headers.get('content-length'));
    if (Number.isFinite(declared) && declared > o.maxBytes) {
      await res.body.cancel();
      throw new MediaTooLargeError(declared, o.maxBytes);
    }

    const parts: Buffer[] = [];
    let size = 0;
    const reader = res.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > o.maxBytes) {
        await reader.cancel();
        throw new MediaTooLargeError(size, o.maxBytes);
      }
      parts.push(Buffer.from(value));
    }
    const type = res.headers.get('content-type')?.split(';')[0]?.trim();
    const fileName = file.file_path.split('/').pop();
    return {
      data: Buffer.concat(parts),
      // Telegram's file server mostly says octet-stream, which tells nothing.
      ...(type && type !== 'application/octet-stream' ? { mime: type } : {}),
      ...(fileName ? { fileName } : {}),
    };
  }
}
