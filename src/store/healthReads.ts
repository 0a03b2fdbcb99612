// The health page's reads (off the hot path, but polled): each a bounded find on a time index —
// the latest llm_call, delivery, context_built and floor events (events.by_kind) and the latest
// unanswered turns (turns.by_time) of a short window, never a scan of the whole record.
import type { Filter } from 'mongodb';
import type { EventLog, Turn } from '../domain/model.js';
import type { Collections } from './collections.js';

type EventHead = Pick<EventLog, '_id' | 'at' | 'dialogueId' | 'turnId' | 'data'>;
type TurnHead = Pick<Turn, '_id' | 'dialogueId' | 'startedAt' | 'closedAt'>;

export class HealthReads {
  constructor(private readonly c: Collections) {}

  /** The newest model calls since `since`, newest first, with only what health needs of them. */
  recentCalls(since: Date, limit: number): Promise<EventHead[]> {
    return this.newestEvents(
      { kind: 'llm_call', at: { $gte: since } },
      ['error', 'errorCode', 'task', 'skipped'],
      limit,
    );
  }

  /** Failed deliveries since `since`, newest first. */
  failedDeliveries(since: Date, limit: number): Promise<EventHead[]> {
    return this.newestEvents(
      { kind: 'delivery', at: { $gte: since }, 'data.ok': false },
      ['ok', 'error', 'platform'],
      limit,
    );
  }

  /** Context builds since `since` whose memory recall or knowledge search ran degraded, newest first. */
  degradedRecalls(since: Date, limit: number): Promise<EventHead[]> {
    return this.newestEvents(
      {
        kind: 'context_built',
        at: { $gte: since },
        $or: [{ 'data.recall.degraded': { $type: 'string' } }, { 'data.knowledge.degraded': { $type: 'string' } }],
      },
      ['recall.degraded', 'knowledge.degraded'],
      limit,
    );
  }

  /** Rooms whose agents' own rounds were stopped by their round or token budget since `since`. */
  budgetStops(since: Date, limit: number): Promise<EventHead[]> {
    return this.newestEvents(
      { kind: 'floor', at: { $gte: since }, 'data.decision': 'chain_stopped' },
      ['why', 'tokens'],
      limit,
    );
  }

  /** Messages and replies moderation flagged, or its endpoint could not check, since `since` (SPEC §14). */
  moderations(since: Date, limit: number): Promise<EventHead[]> {
    return this.newestEvents(
      { kind: 'moderation', at: { $gte: since } },
      ['direction', 'flagged', 'by', 'matched', 'categories', 'endpointFailed'],
      limit,
    );
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

  /**
   * The newest `limit` events matching `filter` (kind and a time window, so events.by_kind bounds
   * it), newest first, with the head an incident names and only the named `data` fields.
   */
  private newestEvents(filter: Filter<EventLog>, dataFields: readonly string[], limit: number): Promise<EventHead[]> {
    const projection = {
      at: 1,
      dialogueId: 1,
      turnId: 1,
      ...Object.fromEntries(dataFields.map((f) => [`data.${f}`, 1])),
    };
    return this.c.events.find(filter, { projection }).sort({ at: -1 }).limit(limit).toArray();
  }
}
