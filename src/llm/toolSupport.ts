// Which of a provider's models take tools, as this process learned it. A model refuses tools at
// most once: its first call with tools goes alone (others with tools wait until its response
// begins or fails), and once refused, no call sends it tools again.

interface Probe {
  settled: Promise<void>;
  settle(): void;
}
type Known = 'accepted' | 'refused' | Probe;

export class ToolSupport {
  private readonly models = new Map<string, Known>();

  /** Whether to offer tools to `model`; a caller that gets true for an unknown model is its probe. */
  async mayOffer(model: string, signal: AbortSignal): Promise<boolean> {
    for (;;) {
      const known = this.models.get(model);
      if (known === 'accepted') return true;
      if (known === 'refused') return false;
      if (known === undefined) {
        let settle = (): void => undefined;
        const settled = new Promise<void>((resolve) => (settle = resolve));
        this.models.set(model, { settled, settle });
        return true;
      }
      await settledOrAborted(known.settled, signal);
      // Stopped while waiting: the call is aborted anyway, whatever it is offered.
      if (signal.aborted) return true;
    }
  }

  /** The model took a call with tools. */
  accepted(model: string): void {
    this.settle(model, 'accepted');
  }

  /** The model refused tools: never offered them again in this process. */
  refused(model: string): void {
    this.settle(model, 'refused');
  }

  /** The probe failed for another reason (a 503, say): the next caller probes again. */
  unknown(model: string): void {
    const known = this.models.get(model);
    if (typeof known !== 'object') return;
    this.models.delete(model);
    known.settle();
  }

  /** Models known to refuse tools. */
  refusedModels(): string[] {
    return [...this.models].filter(([, k]) => k === 'refused').map(([m]) => m);
  }

  private settle(model: string, to: 'accepted' | 'refused'): void {
    const known = this.models.get(model);
    if (known === to) return;
    this.models.set(model, to);
    if (typeof known === 'object') known.settle();
  }
}

function settledOrAborted(settled: Promise<void>, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      signal.removeEventListener('abort', done);
      resolve();
    };
    signal.addEventListener('abort', done, { once: true });
    if (signal.aborted) done();
    void settled.then(done);
  });
}
