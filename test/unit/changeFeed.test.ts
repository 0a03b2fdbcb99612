// The change feed's routing and its promise never to fail the write that announced a change.
import { describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { channelsOf, feedTopics, guardedFeed, RedisChangeFeed, type FeedChange } from '../../src/feed/changeFeed.js';

describe('change feed', () => {
  it('routes messages and turns to their dialogue, events to their turn and their dialogue', () => {
    expect(channelsOf('p', { kind: 'message', dialogueId: 'd1', messageId: 'm1', change: 'created' })).toEqual([
      'p:feed:messages:d1',
    ]);
    expect(channelsOf('p', { kind: 'turn', dialogueId: 'd1', turnId: 't1', status: 'pending' })).toEqual([
      'p:feed:turns:d1',
    ]);
    expect(
      channelsOf('p', { kind: 'event', dialogueId: 'd1', turnId: 't1', eventId: 'e1', eventKind: 'llm_call' }),
    ).toEqual(['p:feed:events:t1', 'p:feed:events:d1']);
    // A warning without a turn still reaches the dialogue's channel.
    expect(channelsOf('p', { kind: 'event', dialogueId: 'd1', eventId: 'e2', eventKind: 'warning' })).toEqual([
      'p:feed:events:d1',
    ]);
    // Channels are `${topic}:${id}`, what graphql-yoga's pub/sub subscribes to.
    expect(channelsOf('p', { kind: 'turn', dialogueId: 'd1', turnId: 't1', status: 'responded' })[0]).toBe(
      `${feedTopics('p').turns}:d1`,
    );
  });

  it('publishes the change as JSON and reports a failed publish without throwing', async () => {
    const published: Array<[string, string]> = [];
    const errors: unknown[] = [];
    const redis = {
      publish: (channel: string, payload: string) => (
        published.push([channel, payload]),
        channel.endsWith(':d1') ? Promise.resolve(1) : Promise.reject(new Error('redis down'))
      ),
    } as unknown as Redis; // only publish is used
    const change: FeedChange = { kind: 'event', dialogueId: 'd1', turnId: 't1', eventId: 'e1', eventKind: 'delivery' };
    new RedisChangeFeed(redis, 'p', (err) => errors.push(err)).publish(change);
    await new Promise((r) => setImmediate(r));
    expect(published.map(([c]) => c)).toEqual(['p:feed:events:t1', 'p:feed:events:d1']);
    expect(JSON.parse(published[0]![1])).toEqual(change);
    expect(errors).toHaveLength(1);
  });

  it('a feed that throws never throws into the write', () => {
    const errors: unknown[] = [];
    const feed = guardedFeed(
      {
        publish: () => {
          throw new Error('boom');
        },
      },
      (err) => errors.push(err),
    );
    expect(() => feed.publish({ kind: 'message', dialogueId: 'd', messageId: 'm', change: 'updated' })).not.toThrow();
    expect(errors).toHaveLength(1);
  });
});
