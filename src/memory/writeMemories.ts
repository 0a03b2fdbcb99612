// Applies reconcile decisions to the memories collection. Writes are ordered so a crash leaves
// at worst an extra active entry, never a lost one: new entries are inserted before the entries
// they supersede are retired. Exact duplicates cannot be stored twice (unique dedupe key), so a
// retried extraction converges.
import type { Logger } from 'pino';
import type { MemoryEmbedding, MemoryEntry, MemoryOrigin } from '../domain/model.js';
import { memoryIdOf } from '../store/memories.js';
import type { Store } from '../store/store.js';
import type { OwnerScope } from '../store/memories.js';
import { clampMemoryText, dedupeKeyOf } from './normalize.js';
import type { Candidate, Decision } from './reconcile.js';

export interface WriteContext {
  scope: OwnerScope;
  /** Where the memories come from: this turn's dialogue, session, turn and messages. */
  sources: Pick<MemoryEntry['sources'], 'dialogueId' | 'sessionId' | 'turnIds' | 'messageIds'>;
  /** Where they were learned (src/domain/memoryOrigin.ts); absent only for the agent's own reflections. */
  origin: MemoryOrigin | undefined;
  now: Date;
  maxChars: number;
}

/** Nothing written yet. */
export const emptyWriteSummary = (): WriteSummary => ({
  added: 0,
  updated: 0,
  superseded: 0,
  reactivated: 0,
  noops: 0,
  writtenIds: [],
  supersededIds: [],
});

export interface WriteSummary {
  added: number;
  updated: number;
  superseded: number;
  reactivated: number;
  noops: number;
  /** Entries created, rewritten or made current again by this write. */
  writtenIds: string[];
  /** Entries this write retired (they leave the memory indexes). */
  supersededIds: string[];
}

/** The texts that will be stored (added or rewritten), to embed in one call before writing. */
export function textsToEmbed(candidates: Candidate[], decisions: Decision[], maxChars: number): string[] {
  return decisions.flatMap((d, i) =>
    d.kind === 'add' ? [candidates[i]!.text] : d.kind === 'update' ? [clampMemoryText(d.text, maxChars)] : [],
  );
}

export function newMemoryEntry(
  ctx: WriteContext,
  c: Omit<Candidate, 'dedupeKey'>,
  embedding: MemoryEmbedding | undefined,
): MemoryEntry {
  const dedupeKey = dedupeKeyOf(ctx.scope.ownerId, ctx.scope.subjectId, c.text, ctx.origin);
  return {
    _id: memoryIdOf(dedupeKey),
    ownerId: ctx.scope.ownerId,
    ...(ctx.scope.subjectId !== undefined ? { subjectId: ctx.scope.subjectId } : {}),
    kind: c.kind,
    text: c.text,
    dedupeKey,
    ...(embedding ? { embedding } : {}),
    importance: c.importance,
    sources: { ...ctx.sources },
    ...(ctx.origin ? { origin: ctx.origin } : {}),
    occurredAt: c.occurredAt,
    status: 'active',
    recall: { count: 0 },
    createdAt: ctx.now,
    updatedAt: ctx.now,
  };
}

/**
 * `embeddings` maps a stored text to its vector (absent when embedding failed: the entry is
 * stored without one and the index embeds it on its next load).
 */
export async function applyDecisions(
  store: Store,
  ctx: WriteContext,
  candidates: Candidate[],
  decisions: Decision[],
  embeddings: ReadonlyMap<string, MemoryEmbedding>,
  log: Logger,
): Promise<WriteSummary> {
  const sum = emptyWriteSummary();
  const provenance = {
    ...(ctx.sources.turnIds ? { turnIds: ctx.sources.turnIds } : {}),
    ...(ctx.sources.messageIds ? { messageIds: ctx.sources.messageIds } : {}),
  };
  const supersede = async (ids: string[], by: string): Promise<void> => {
    sum.superseded += await store.memories.retire(ids, 'superseded', ctx.now, { supersededBy: by });
    sum.supersededIds.push(...ids);
  };

  const add = async (c: Candidate, then: string[]): Promise<void> => {
    const { inserted, entry } = await store.memories.insertOnce(newMemoryEntry(ctx, c, embeddings.get(c.text)));
    if (inserted) sum.added++;
    else if (entry.status === 'superseded' || entry.status === 'pruned') {
      // Stored meanwhile as an old fact (a retry, or a concurrent writer): current again.
      if (await store.memories.reactivate(entry._id, ctx.now)) sum.reactivated++;
    } else sum.noops++;
    sum.writtenIds.push(entry._id);
    if (then.length > 0)
      await supersede(
        then.filter((id) => id !== entry._id),
        entry._id,
      );
  };

  for (const [i, d] of decisions.entries()) {
    const c = candidates[i]!;
    switch (d.kind) {
      case 'noop':
        sum.noops++;
        // The fact was said again: the entry also comes from this turn now.
        if (d.targetId) await store.memories.appendSources(d.targetId, provenance, ctx.now);
        break;
      case 'add':
        await add(c, d.supersede);
        break;
      case 'update': {
        const text = clampMemoryText(d.text, ctx.maxChars);
        const embedding = embeddings.get(text);
        const ok = await store.memories.updateText(
          d.targetId,
          {
            text,
            dedupeKey: dedupeKeyOf(ctx.scope.ownerId, ctx.scope.subjectId, text, ctx.origin),
            ...(embedding ? { embedding } : {}),
          },
          ctx.now,
        );
        if (ok) {
          sum.updated++;
          sum.writtenIds.push(d.targetId);
          await store.memories.appendSources(d.targetId, provenance, ctx.now);
        } else {
          // The target is no longer active or the rewritten text exists already: keep the new fact as its own entry.
          log.info({ targetId: d.targetId }, 'memory update not applied; adding the candidate instead');
          await add(c, []);
        }
        break;
      }
      case 'reactivate':
        if (await store.memories.reactivate(d.id, ctx.now)) sum.reactivated++;
        else sum.noops++;
        sum.writtenIds.push(d.id);
        await store.memories.appendSources(d.id, provenance, ctx.now);
        if (d.supersede.length > 0) await supersede(d.supersede, d.id);
        break;
    }
  }
  return sum;
}
