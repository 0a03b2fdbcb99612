import type { Collections } from './collections.js';
import type { EventKind, EventLog } from '../domain/model.js';
import { newId } from '../domain/ids.js';

export class EventRepo {
  constructor(private readonly c: Collections) {}

  async record(e: { kind: EventKind; dialogueId: string; sessionId?: string; turnId?: string; messageId?: string; data: Record<string, unknown>; at?: Date }): Promise<string> {
    const at = e.at ?? new Date();
    const _id = newId('evt', at);
    await this.c.events.insertOne({ _id, ...e, at });
    return _id;
  }

  ofTurn(turnId: string): Promise<EventLog[]> {
    return this.c.events.find({ turnId }).sort({ at: 1, _id: 1 }).toArray();
  }
}
