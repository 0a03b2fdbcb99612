// The health page's reads (off the hot path, but polled): each a bounded find on a time index —
// the latest llm_call, delivery, context_built and floor events (events.by_kind) and the latest
// unanswered turns (turns.by_time) of a short window, never a scan of the whole record.
import type { EventLog, Turn } from '../domain/model.js';
import type { Collections } from './collections.js';

type EventHead = Pick<EventLog, '_id' | 'at' | 'dialogueId' | 'turnId' | 'data'>;
type TurnHead = Pick<Turn, '_id' | 'dialogueId' | 'startedAt' | 'closedAt'>;

export class HealthReads {
  constructor(private readonly c: Collections) {}

  /** The newest model calls since `since`, newest first, with only what health needs of them. */
  recentCalls(since: Date, limit: number): Promise<EventHead[]> {
    return this.c.events
      .find(
        { kind: 'llm_call', at: { $gte: since } },
        {
          projection: {
            at: 1,
            dialogueId: 1,
            turnId: 1,
            'data.error': 1,
            'data.errorCode': 1,
            'data.task': 1,
            'data.skipped': 1,
          },
        },
      )
      .sort({ at: -1 })
      .limit(limit)
      .toArray();
  }

  /** Failed deliveries since `since`, newest first. */
  failedDeliveries(since: Date, limit: number): Promise<EventHead[]> {
    return this.c.events
      .find(
        { kind: 'delivery', at: { $gte: since }, 'data.ok': false },
        { projection: { at: 1, dialogueId: 1, turnId: 1, 'data.ok': 1, 'data.error': 1, 'data.platform': 1 } },
      )
      .sort({ at: -1 })
      .limit(limit)
      .toArray();
  }

  /** Context builds since `since` whose memory recall or knowledge search ran degraded, newest first. */
  degradedRecalls(since: Date, limit: number): Promise<EventHead[]> {
    return this.c.events
      .find(
        {
          kind: 'context_built',
          at: { $gte: since },
          $or: [{ 'data.recall.degraded': { $type: 'string' } }, { 'data.knowledge.degraded': { $type: 'string' } }],
        },
        { projection: { at: 1, dialogueId: 1, turnId: 1, 'data.recall.degraded': 1, 'data.knowledge.degraded': 1 } },
      )
      .sort({ at: -1 })
      .limit(limit)
      .toArray();
  }

  /** Rooms whose agents' own rounds were stopped by their round or token budget since `since`. */
  budgetStops(since: Date, limit: number): Promise<EventHead[]> {
    return this.c.events
      .find(
        { kind: 'floor', at: { $gte: since }, 'data.decision': 'chain_stopped' },
        { projection: { at: 1, dialogueId: 1, turnId: 1, 'data.why': 1, 'data.tokens': 1 } },
      )
      .sort({ at: -1 })
      .limit(limit)
      .toArray();
  }

  /** Turns started since `since` that closed without a reply, newest first. */
  unansweredTurns(since: Date, limit: number): Promise<TurnHead[]> {
    return this.c.turns
      .find(
        { startedAt: { $gte: since }, status: 'unresponded' },
        { projection: { dialogueId: 1, startedAt: 1, closedAt: 1 } },
      )
      .sort({ startedAt: -1 })
      .limit(limit)
      .toArray();
  }
}
