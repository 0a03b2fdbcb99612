// Why a hook: the page only lays out; this holds the chosen window and polls its statistics.
import { useState } from 'preact/hooks';
import { graphql, type ResultOf } from '../../lib/graphql.js';
import { useQuery } from '../../lib/hooks.js';
import { windowOf, type WindowKey } from '../../lib/statsWindow.js';

const QUERY = graphql(`
  query Stats($since: DateTime!, $until: DateTime!, $buckets: Int!) {
    stats(since: $since, until: $until) {
      since
      until
      dialogues {
        created
        active
      }
      sessions
      turns {
        total
        pending
        responded
        unresponded
      }
      messages {
        total
        human
        ai
        system
      }
      replyLatency {
        count
        p50Ms
        p90Ms
        p99Ms
        maxMs
        sampled
      }
      tokens {
        calls
        promptTokens
        completionTokens
        totalTokens
        byTask {
          task
          calls
          promptTokens
          completionTokens
          totalTokens
        }
      }
      timeline(buckets: $buckets) {
        start
        calls
        promptTokens
        completionTokens
        totalTokens
        replies
        p50Ms
        p90Ms
      }
    }
  }
`);

export type StatsView = ResultOf<typeof QUERY>['stats'];

/** The window (24 h at first) and its statistics, asked again every 30 s. */
export function useStats() {
  const [key, setKey] = useState<WindowKey>('24h');
  const q = useQuery(QUERY, windowOf(key), { pollMs: 30_000 });
  return { key, setKey, q };
}
