// Downloads Discord attachments (fileRef = the attachment URL) with the size limit enforced while
// streaming. Discord's CDN URLs are signed and expire; an expired one is renewed through
// POST /attachments/refresh-urls and fetched again. The bot token never goes to the CDN.
import { DiscordAPIError, REST } from 'discord.js';
import { z } from 'zod';
import { MediaTooLargeError, type FetchedMedia, type MediaSource } from '../../src/media/mediaSource.js';

const DISCORD_CDN_ORIGINS = ['https://cdn.discordapp.com', 'https://media.discordapp.net'];

const refreshedSchema = z.object({
  refreshed_urls: z.array(z.object({ original: z.string(), refreshed: z.string() })),
});

export class DiscordMediaError extends Error {
  override readonly name = 'DiscordMediaError';
  constructor(
    message: string,
    /** HTTP status from the CDN, when it answered. */
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface DiscordMediaSourceOptions {
  /** With a token, expired attachment URLs are refreshed through the REST API. */
  token?: string;
  /** REST base without /v10 (DISCORD_API_ROOT); its origin is also accepted as a CDN (local fakes, proxies). */
  apiRoot?: string;
  /** Origins a fileRef may point to; Discord's CDN and media proxy by default. */
  allowedOrigins?: string[];
}

export class DiscordMediaSource implements MediaSource {
  readonly platform = 'discord' as const;
  private readonly origins: Set<string>;
  private readonly rest: REST | undefined;

  constructor(o: DiscordMediaSourceOptions = {}) {
    this.origins = new Set([
      ...(o.allowedOrigins ?? DISCORD_CDN_ORIGINS),
      ...(o.apiRoot ? [new URL(o.apiRoot).origin] : []),
    ]);
    this.rest = o.token
      ? new REST({ api: o.apiRoot ?? 'https://discord.com/api', version: '10', retries: 1 }).setToken(o.token)
      : undefined;
  }

  async fetch(fileRef: string, o: { maxBytes: number; signal?: AbortSignal }): Promise<FetchedMedia> {
    const url = this.checked(fileRef);
    let res = await this.download(url, o.signal);
    // Signed URLs expire after about a day: a retried transcription may hold a stale one.
    if ((res.status === 403 || res.status === 404 || res.status === 410) && this.rest) {
      await res.body?.cancel();
      const fresh = await this.refresh(url.href);
      if (fresh && fresh !== url.href) res = await this.download(this.checked(fresh), o.signal);
    }
    if (!res.ok) {
      await res.body?.cancel();
      throw new DiscordMediaError(`attachment download failed: HTTP ${res.status}`, res.status);
    }
    const declared = Number(res.headers.get('content-length') ?? NaN);
    if (Number.isFinite(declared) && declared > o.maxBytes) {
      await res.body?.cancel();
      throw new MediaTooLargeError(declared, o.maxBytes);
    }
    const data = await readCapped(res, o.maxBytes);
    const mime = res.headers.get('content-type')?.split(';')[0]?.trim() || undefined;
    const fileName = decodeURIComponent(url.pathname.split('/').pop() ?? '') || undefined;
    return { data, ...(mime ? { mime } : {}), ...(fileName ? { fileName } : {}) };
  }

  private checked(ref: string): URL {
    let url: URL;
    try {
      url = new URL(ref);
    } catch {
      throw new DiscordMediaError('attachment reference is not a URL');
    }
    if (!this.origins.has(url.origin))
      throw new DiscordMediaError(`attachment URL is not on Discord's CDN: ${url.origin}`);
    return url;
  }

  private async download(url: URL, signal: AbortSignal | undefined): Promise<Response> {
    try {
      return await fetch(url, { ...(signal ? { signal } : {}), redirect: 'error' });
    } catch (err) {
      if (signal?.aborted) throw err;
      throw new DiscordMediaError(`attachment download failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  private async refresh(href: string): Promise<string | undefined> {
    try {
      const answer = refreshedSchema.parse(
        await this.rest?.post('/attachments/refresh-urls', { body: { attachment_urls: [href] } }),
      );
      return answer.refreshed_urls.find((r) => r.original === href)?.refreshed;
    } catch (err) {
      if (err instanceof DiscordAPIError || err instanceof z.ZodError) return undefined; // the first answer stands
      throw err;
    }
  }
}

/** Reads the body, giving up as soon as it passes maxBytes (the declared length may be absent or wrong). */
async function readCapped(res: Response, maxBytes: number): Promise<Buffer> {
  if (!res.body) return Buffer.alloc(0);
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw new MediaTooLargeError(total, maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
