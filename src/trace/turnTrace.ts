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
  /** Start the writes of begun events still waiting for their `after`. */
  private readonly starts: Array<() => void> = [];

  constructor(
    private readonly events: EventRepo,
    private readonly scope: TraceScope,
  ) {}

  /**
   * Returns the event id so later events can reference it (e.g. an LLM call → its prompt).
   * Stored after the events begun before it (started now if they still wait), so the trace is
   * stored, and shown live, in order.
   */
  async record(kind: EventKind, data: Record<string, unknown>): Promise<string> {
    this.startWaiting();
    if (this.pending.length > 0) await Promise.allSettled(this.pending);
    return this.events.record({ ...this.scope, kind, data });
  }

  /**
   * Returns the event's id at once and stores it once `after` settles (at once without it; at the
   * latest when a later event is recorded), so the work it describes need not wait for the write:
   * the context build is stored once the model has the request. `settled` awaits it.
   */
  begin(kind: EventKind, data: Record<string, unknown>, after?: Promise<void>): string {
    const id = newId('evt');
    let start = (): void => undefined;
    const due = new Promise<void>((resolve) => (start = resolve));
    this.starts.push(start);
    void (after ?? Promise.resolve()).then(start);
    this.pending.push(due.then(() => this.events.record({ ...this.scope, id, kind, data })));
    return id;
  }

  /** Waits for every event started with `begin`; rejects with the first write that failed. */
  async settled(): Promise<void> {
    this.startWaiting();
    await Promise.all(this.pending.splice(0));
  }

  private startWaiting(): void {
    for (const start of this.starts.splice(0)) start();
  }
}
