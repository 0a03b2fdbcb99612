// An embeddings API that may not be there: Ollama answers 404 for a model it does not have
// (`text-embedding-3-small`, the default), a chat-only server has no /embeddings at all. The
// first such answer switches this process to the offline embedder for good, and memory keeps
// working without an error per turn (SPEC §14); a passing failure (a timeout, a 503) is an
// error as before. The switch changes the embedder's id, so every vector made by the other one
// is recomputed where it is next used (IndexCache and KnowledgeCache reload on a new id), and
// vectors of the two never meet in one comparison. Until the API has answered once, calls go
// one at a time, so a server without embeddings is asked once per process, not once per caller.
import { GatewayError } from '../errors.js';
import { embeddingsMissing, failureLine } from '../llm/providerFailure.js';
import type { Embedder } from './embedder.js';

/** What the switch reports, for the health page and the log. */
export interface EmbedderFallback {
  /** The embedder given up on, and the one used since. */
  from: string;
  to: string;
  /** The server's answer that decided it (status and message, no secret). */
  reason: string;
  at: Date;
}

/** While offline, the fallback is reported again this often (health marks expire). */
const REPORT_EVERY_MS = 10 * 60_000;

export class FallbackEmbedder implements Embedder {
  private active: Embedder;
  private fallback: EmbedderFallback | undefined;
  private reportedAt = 0;
  /** The API answered once: calls go straight to it. */
  private confirmed = false;
  /** The first call in flight while not confirmed; others wait for it. */
  private probe: Promise<unknown> | undefined;

  constructor(
    private readonly remote: Embedder,
    private readonly offline: Embedder,
    private readonly report: (f: EmbedderFallback) => void,
    private readonly now: () => number = Date.now,
  ) {
    if (remote.dims !== offline.dims) throw new RangeError('the offline embedder must have the same dimensions');
    this.active = remote;
  }

  get id(): string {
    return this.active.id;
  }
  get dims(): number {
    return this.active.dims;
  }
  get lexical(): boolean | undefined {
    return this.active.lexical;
  }

  /** Set once the offline embedder took over. */
  get fellBack(): EmbedderFallback | undefined {
    return this.fallback;
  }

  async embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    if (this.active === this.offline) return this.offlineEmbed(texts, signal);
    if (!this.confirmed && this.probe) {
      await settledOrAborted(this.probe, signal);
      if (signal?.aborted) throw new GatewayError('EMBEDDING_FAILED', 'embeddings call aborted');
      return this.embed(texts, signal);
    }
    const call = this.remote.embed(texts, signal);
    if (!this.confirmed) this.probe = call;
    try {
      const vectors = await call;
      this.confirmed = true;
      // Switched while this call ran: callers label vectors with the id they read afterwards.
      return this.active === this.remote ? vectors : this.offlineEmbed(texts, signal);
    } catch (err) {
      if (this.active === this.remote && !embeddingsMissing(err)) throw err;
      this.switchOver(err);
      return this.offlineEmbed(texts, signal);
    } finally {
      if (this.probe === call) this.probe = undefined;
    }
  }

  private switchOver(err: unknown): void {
    if (this.fallback) return;
    this.fallback = {
      from: this.remote.id,
      to: this.offline.id,
      reason: failureLine(err),
      at: new Date(this.now()),
    };
    this.active = this.offline;
  }

  private offlineEmbed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    const now = this.now();
    if (this.fallback && now - this.reportedAt >= REPORT_EVERY_MS) {
      this.reportedAt = now;
      this.report(this.fallback);
    }
    return this.offline.embed(texts, signal);
  }
}

function settledOrAborted(p: Promise<unknown>, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      signal?.removeEventListener('abort', done);
      resolve();
    };
    signal?.addEventListener('abort', done, { once: true });
    if (signal?.aborted) done();
    p.then(done, done);
  });
}
