// Which memory scopes (owner, or owner + subject) have ever had an entry, by derived `_id`: a
// process loading a scope into its cache (src/memory/indexCache.ts) learns that a new human has
// no memories with one point read instead of a query over every memory. Marked before the first
// entry is inserted; scopes of earlier versions are marked by a one-off backfill, and until it
// has finished an unmarked scope is loaded by query.
import type { Collections } from './collections.js';
import { derivedId } from '../domain/ids.js';
import type { MigrationRepo } from './migrations.js';

export interface MemoryScopeMark {
  _id: string;
  ownerId: string;
  subjectId?: string;
  since: Date;
}

export interface ScopeRef {
  ownerId: string;
  subjectId?: string;
}

export const MEMORY_SCOPES_BACKFILL = 'memory-scopes';

export const memoryScopeIdOf = (s: ScopeRef) => derivedId('msc', s.ownerId, s.subjectId ?? '*');

export class MemoryScopeRepo {
  private readonly marked = new Set<string>();

  constructor(
    private readonly c: Collections,
    private readonly migrations: MigrationRepo,
  ) {}

  /** Marks the scope and its owner-wide scope (once per process and scope). */
  async mark(s: ScopeRef, at: Date): Promise<void> {
    const scopes = s.subjectId === undefined ? [s] : [s, { ownerId: s.ownerId }];
    await Promise.all(
      scopes.map(async (scope) => {
        const _id = memoryScopeIdOf(scope);
        if (this.marked.has(_id)) return;
        await this.c.memoryScopes.updateOne(
          { _id },
          {
            $setOnInsert: {
              ownerId: scope.ownerId,
              ...(scope.subjectId !== undefined ? { subjectId: scope.subjectId } : {}),
              since: at,
            },
          },
          { upsert: true },
        );
        this.marked.add(_id);
      }),
    );
  }

  /** False only when the scope certainly has no entries (unmarked, and the backfill is done). */
  async mayHaveEntries(s: ScopeRef): Promise<boolean> {
    const _id = memoryScopeIdOf(s);
    if (this.marked.has(_id)) return true;
    if (await this.c.memoryScopes.findOne({ _id })) return true;
    return !(await this.migrations.done(MEMORY_SCOPES_BACKFILL));
  }
}
