// The change feed: after a write lands, the store announces which record changed so the API's
// subscriptions (in any process) can read it again. Redis pub/sub carries it across processes.
// Announcements are hints, not the record: a lost one loses a live update, never data.
import type { Redis } from 'ioredis';

/** What changed. Subscribers read the record by id; the payload stays small. */
export type FeedChange =
  | { kind: 'message'; dialogueId: string; messageId: string; change: 'created' | 'updated' }
  | { kind: 'turn'; dialogueId: string; turnId: string; status: string }
  | { kind: 'event'; dialogueId: string; turnId?: string; eventId: string; eventKind: string }
  /** A self-reflection run of an agent was queued, started, recorded a turn, finished or was rolled back. */
  | {
      kind: 'reflection';
      agentId: string;
      reflectionId: string;
      change: 'queued' | 'started' | 'turn' | 'finished' | 'rolled_back';
      turnId?: string;
    };

export interface ChangeFeed {
  publish(change: FeedChange): void;
}

/** A feed that tells no one (tools, the bench's floor, processes without Redis). */
export const silentFeed: ChangeFeed = { publish: () => {} };

/** Announcing is a side effect of a write that already landed: it must never throw into it. */
export function guardedFeed(feed: ChangeFeed, onError: (err: unknown) => void = () => {}): ChangeFeed {
  return {
    publish(change) {
      try {
        feed.publish(change);
      } catch (err) {
        onError(err);
      }
    },
  };
}

/**
 * Channel names, one per dialogue for messages and turns and one per turn for events. They are
 * `${routingKey}:${id}`, the shape graphql-yoga's Redis event target subscribes to.
 */
export function feedTopics(prefix: string) {
  return {
    messages: `${prefix}:feed:messages`,
    turns: `${prefix}:feed:turns`,
    events: `${prefix}:feed:events`,
    reflections: `${prefix}:feed:reflections`,
  } as const;
}

export function channelsOf(prefix: string, change: FeedChange): string[] {
  const t = feedTopics(prefix);
  switch (change.kind) {
    case 'message':
      return [`${t.messages}:${change.dialogueId}`];
    case 'turn':
      return [`${t.turns}:${change.dialogueId}`];
    case 'event':
      // Events of a turn, and every event of the dialogue (warnings have no turn).
      return [...(change.turnId ? [`${t.events}:${change.turnId}`] : []), `${t.events}:${change.dialogueId}`];
    case 'reflection':
      return [`${t.reflections}:${change.agentId}`];
  }
}

export class RedisChangeFeed implements ChangeFeed {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly onError: (err: unknown) => void = () => {},
  ) {}

  publish(change: FeedChange): void {
    const payload = JSON.stringify(change);
    for (const channel of channelsOf(this.prefix, change)) {
      this.redis.publish(channel, payload).catch(this.onError);
    }
  }
}
