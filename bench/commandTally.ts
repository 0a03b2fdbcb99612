// Database commands the app sends, from the driver's command monitoring (`monitorCommands=true`),
// split into lookups by a single string `_id` (cheap on any server) and everything else (a scan
// on FerretDB unless an index serves it). The "other" shapes say which queries those are.
import type { MongoClient } from 'mongodb';
import { classify, type CommandClass } from '../test/support/commandWatch.js';

export { withCommandMonitoring } from '../test/support/commandWatch.js';

export interface TallyCounts {
  /** Commands by name, per class. */
  byKind: Record<CommandClass, Map<string, number>>;
  /** "Other" commands by shape. */
  otherShapes: Map<string, number>;
}

const emptyCounts = (): TallyCounts => ({
  byKind: { idOnly: new Map(), other: new Map(), ignored: new Map() },
  otherShapes: new Map(),
});
const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);

/** Counts the commands `client` starts while switched on. The client must have command monitoring on. */
export class CommandTally {
  private counting = false;
  private counts = emptyCounts();

  constructor(client: MongoClient) {
    client.on('commandStarted', (e) => {
      if (!this.counting) return;
      const c = classify(e);
      bump(this.counts.byKind[c.cls], e.commandName);
      if (c.cls === 'other') bump(this.counts.otherShapes, c.shape);
    });
  }

  /** Starts a fresh count. */
  start(): void {
    this.counts = emptyCounts();
    this.counting = true;
  }

  /** Stops counting and returns what was counted since start(). */
  stop(): TallyCounts {
    this.counting = false;
    return this.counts;
  }
}
