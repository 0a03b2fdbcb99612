// Writes that many callers make to one shared document (an agent's reply count, written by every
// chat of the agent) coalesced per process: the callers of one flush share one hold of the
// document's guard and one write, instead of queueing for the guard one after another.
// In-flight per key: one flush at a time; notes that arrive meanwhile wait for the next one.

interface Pending<N, R> {
  notes: N[];
  settle: Array<{ resolve: (r: R) => void; reject: (err: unknown) => void }>;
}

export class Coalesced<N, R> {
  private readonly waiting = new Map<string, Pending<N, R>>();
  private readonly flushing = new Map<string, Promise<void>>();

  /** `flush(key, notes)` writes a batch and returns one result per note, in order. */
  constructor(private readonly flush: (key: string, notes: N[]) => Promise<R[]>) {}

  /** Resolves with this note's result once the batch holding it is written. */
  add(key: string, note: N): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      let p = this.waiting.get(key);
      if (!p) this.waiting.set(key, (p = { notes: [], settle: [] }));
      p.notes.push(note);
      p.settle.push({ resolve, reject });
      if (!this.flushing.has(key)) this.next(key);
    });
  }

  private next(key: string): void {
    const batch = this.waiting.get(key);
    if (!batch) return;
    this.waiting.delete(key);
    const run = this.flush(key, batch.notes).then(
      (results) => batch.settle.forEach((s, i) => s.resolve(results[i]!)),
      (err: unknown) => batch.settle.forEach((s) => s.reject(err)),
    );
    this.flushing.set(
      key,
      run.finally(() => {
        this.flushing.delete(key);
        this.next(key);
      }),
    );
  }
}
