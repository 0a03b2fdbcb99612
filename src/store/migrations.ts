// One-off backfills that bring documents of earlier versions up to the hot path's shape, each
// marked done once in `migrations` (read once per process after it is done).
import type { Collections } from './collections.js';

export class MigrationRepo {
  private readonly finished = new Set<string>();

  constructor(private readonly c: Collections) {}

  async done(name: string): Promise<boolean> {
    if (this.finished.has(name)) return true;
    const doc = await this.c.migrations.findOne({ _id: name });
    if (doc) this.finished.add(name);
    return doc !== null;
  }

  async markDone(name: string, at: Date): Promise<void> {
    await this.c.migrations.replaceOne({ _id: name }, { doneAt: at }, { upsert: true });
    this.finished.add(name);
  }
}
