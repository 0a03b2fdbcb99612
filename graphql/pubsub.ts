// Live updates for subscriptions: graphql-yoga's pub/sub over Redis, fed by the store's
// change feed (src/feed) from whichever process made the change.
import { createPubSub, type PubSub } from 'graphql-yoga';
import { createRedisEventTarget } from '@graphql-yoga/redis-event-target';
import type { Redis } from 'ioredis';
import { feedTopics, type FeedChange } from '../src/feed/changeFeed.js';

export type FeedTopics = ReturnType<typeof feedTopics>;
export type GatewayPubSub = PubSub<Record<string, [string, FeedChange]>> & { topics: FeedTopics };

/** `subscriber` is a connection of its own: a Redis connection in subscribe mode can do nothing else. */
export function createGatewayPubSub(o: { publisher: Redis; subscriber: Redis; prefix: string }): GatewayPubSub {
  const eventTarget = createRedisEventTarget({ publishClient: o.publisher, subscribeClient: o.subscriber });
  const pubsub = createPubSub<Record<string, [string, FeedChange]>>({ eventTarget });
  return Object.assign(pubsub, { topics: feedTopics(o.prefix) });
}
