// One Redis subscriber per process for the web streams: each followed reply listens on its
// dialogue's message channel of the change feed (src/feed/changeFeed.ts); a channel is
// subscribed while anyone listens. The feed is a hint: followers read the record themselves.
import type { Redis } from 'ioredis';
import { feedTopics, type FeedChange } from '../../src/feed/changeFeed.js';
import type { Logger } from '../../src/log.js';

export type FeedListener = (change: FeedChange) => void;

export interface DialogueFeed {
  /**
   * Calls `listener` for every change announced in the dialogue's messages. Resolves once the
   * channel is subscribed (a read made after that misses no change), with the unsubscribe.
   */
  onMessages(dialogueId: string, listener: FeedListener): Promise<() => void>;
}

export class RedisDialogueFeed implements DialogueFeed {
  private readonly listeners = new Map<string, { set: Set<FeedListener>; ready: Promise<unknown> }>();
  private readonly topic: string;

  constructor(
    private readonly subscriber: Redis,
    prefix: string,
    private readonly log: Logger,
  ) {
    this.topic = feedTopics(prefix).messages;
    subscriber.on('message', (channel: string, payload: string) => this.dispatch(channel, payload));
  }

  async onMessages(dialogueId: string, listener: FeedListener): Promise<() => void> {
    const channel = `${this.topic}:${dialogueId}`;
    let entry = this.listeners.get(channel);
    if (!entry) {
      // A failed subscribe is logged, not thrown: followers also poll the record.
      const ready = this.subscriber.subscribe(channel).catch((err: unknown) => {
        this.log.warn({ err }, 'feed subscribe failed');
      });
      entry = { set: new Set(), ready };
      this.listeners.set(channel, entry);
    }
    entry.set.add(listener);
    await entry.ready;
    return () => {
      const e = this.listeners.get(channel);
      if (!e?.set.delete(listener) || e.set.size > 0) return;
      this.listeners.delete(channel);
      this.subscriber.unsubscribe(channel).catch((err: unknown) => this.log.warn({ err }, 'feed unsubscribe failed'));
    };
  }

  private dispatch(channel: string, payload: string): void {
    const set = this.listeners.get(channel)?.set;
    if (!set) return;
    let change: FeedChange;
    try {
      change = JSON.parse(payload) as FeedChange;
    } catch {
      return; // not ours to judge: the feed is a hint
    }
    for (const l of set) l(change);
  }
}
