// Records the ordered trace of one turn (SPEC §6, seed 000): context build, every LLM call,
// every tool call, system utterances and delivery attempts, each as an EventLog document.
import type { EventRepo } from '../store/events.js';
import type { EventKind } from '../domain/model.js';

export interface TraceScope {
  dialogueId: string;
  sessionId: string;
  turnId: string;
  messageId?: string;
}

export class TurnTrace {
  constructor(
    private readonly events: EventRepo,
    private readonly scope: TraceScope,
  ) {}

  /** Returns the event id so later events can reference it (e.g. an LLM call → its prompt). */
  record(kind: EventKind, data: Record<string, unknown>): Promise<string> {
    return this.events.record({ ...this.scope, kind, data });
  }
}
