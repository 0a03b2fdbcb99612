// Records the ordered trace of one turn (SPEC §6, seed 000): context build, every LLM call,
// every tool call, system utterances and delivery attempts, each as an EventLog document.
import type { EventRepo } from '../store/events.js';
import type { EventKind } from '../domain/model.js';
import { newId } from '../domain/ids.js';

export interface TraceScope {
  dialogueId: string;
  sessionId: string;
  turnId: string;
  messageId?: string;
}

export class TurnTrace {
  private readonly pending: Array<Promise<unknown>> = [];

  constructor(
    private readonly events: EventRepo,
    private readonly scope: TraceScope,
  ) {}

  /** Returns the event id so later events can reference it (e.g. an LLM call → its prompt). */
  record(kind: EventKind, data: Record<string, unknown>): Promise<string> {
    return this.events.record({ ...this.scope, kind, data });
  }

  /**
   * Starts recording and returns the id at once, so the work it describes need not wait for the
   * write (the context build is stored while the model is already called). `settled` awaits it.
   */
  begin(kind: EventKind, data: Record<string, unknown>): string {
    const id = newId('evt');
    this.pending.push(this.events.record({ ...this.scope, id, kind, data }));
    return id;
  }

  /** Waits for every event started with `begin`; rejects with the first write that failed. */
  async settled(): Promise<void> {
    await Promise.all(this.pending.splice(0));
  }
}
