// What the core knows about a chat platform, told by its adapter: each adapter package exports
// one descriptor (app/platforms.ts lists them) and the composition root registers them. The
// core names no platform; delivery asks the descriptor instead.
import type { ChatRef } from '../domain/model.js';

export interface BucketRate {
  /** Tokens added per second (sustained calls per second). */
  perSecond: number;
  /** Bucket size: calls allowed at once after a quiet period. */
  burst: number;
}

/** Sending budgets, from the platform's documented limits kept just under them. */
export interface PlatformLimits {
  privateChat: BucketRate;
  groupChat: BucketRate;
  global: BucketRate;
}

export interface PlatformDescriptor {
  /** The platform's id in the record (`Message.platformRef.platform`, `ChatRef.platform`). */
  readonly id: string;
  readonly limits: PlatformLimits;
  /** Whether a chat is a group (groups get the slower budget). */
  isGroupChat(chat: ChatRef): boolean;
  /** Whose budget a call spends: a whole chat, or one channel or thread of it. */
  budgetKey(chat: ChatRef): string;
  /** How often a streaming reply is stored and shown; absent: the deployment's STREAM_EDIT_INTERVAL_MS. */
  readonly streamIntervalMs?: number;
  /**
   * The channel shows a reply's cited sources itself (the web channel's `source_reference` events,
   * from `Message.sources`); otherwise the reply ends with short footnotes ("[1] handbook.pdf").
   */
  readonly sourcesAsEvents?: boolean;
}

export class PlatformRegistry {
  private readonly byId = new Map<string, PlatformDescriptor>();

  constructor(descriptors: readonly PlatformDescriptor[] = []) {
    for (const d of descriptors) this.register(d);
  }

  register(d: PlatformDescriptor): void {
    if (this.byId.has(d.id)) throw new Error(`platform ${d.id} is registered twice`);
    this.byId.set(d.id, d);
  }

  /** The descriptor of a platform, undefined when none is registered under `id`. */
  find(id: string): PlatformDescriptor | undefined {
    return this.byId.get(id);
  }

  /** The descriptor of a registered platform; an unknown one is a wiring mistake. */
  get(id: string): PlatformDescriptor {
    const d = this.byId.get(id);
    if (!d) throw new Error(`platform ${id} is not registered (app/platforms.ts)`);
    return d;
  }
}
