// What a started process must undo, in reverse order of starting it.
import type { Logger } from '../src/log.js';

export class Stops {
  private readonly steps: Array<() => Promise<unknown>> = [];

  constructor(private readonly log: Logger) {}

  push(step: () => Promise<unknown>): void {
    this.steps.push(step);
  }

  /** Runs every step, newest first; a failing step is logged and the rest still run. */
  async run(): Promise<void> {
    for (const step of this.steps.splice(0).reverse())
      await step().catch((err: unknown) => this.log.error({ err }, 'error while stopping'));
  }
}
