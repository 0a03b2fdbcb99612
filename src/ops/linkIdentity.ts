// Links a platform identity (a Telegram or Discord account) to a web user, so they are one
// Human with one memory (SPEC §12). The web user is the person from then on: the identity's
// own record points at them, and what the agents remembered about the identity moves to them —
// each entry copied under the web user (or found there already) and the original kept, marked
// merged into it, never deleted.
import type { PlatformIdentity } from '../domain/model.js';
import { GatewayError } from '../errors.js';
import { dedupeKeyOf } from '../memory/normalize.js';
import type { MemoryVersions } from '../memory/versions.js';
import type { Store } from '../store/store.js';
import { humanIdOf } from '../store/participants.js';

export interface LinkDeps {
  store: Store;
  memoryVersions?: Pick<MemoryVersions, 'bump'>;
}

export async function linkIdentity(
  deps: LinkDeps,
  o: { identity: PlatformIdentity; into: string; at: Date },
): Promise<{ memoriesMoved: number }> {
  const { store } = deps;
  const from = humanIdOf(o.identity);
  if (from === o.into) return { memoriesMoved: 0 };
  if (!(await store.participants.getHuman(o.into))) throw new GatewayError('NOT_FOUND', `no person ${o.into}`);
  await store.participants.link(o.identity, o.into, o.at);
  const moved = await moveMemories(deps, from, o.into, o.at);
  return { memoriesMoved: moved };
}

async function moveMemories(deps: LinkDeps, from: string, into: string, at: Date): Promise<number> {
  const { store } = deps;
  const entries = await store.memories.activeAbout(from);
  const owners = new Set<string>();
  for (const e of entries) {
    const { _id: _old, ...rest } = e;
    const { entry } = await store.memories.insertOnce({
      ...rest,
      subjectId: into,
      dedupeKey: dedupeKeyOf(e.ownerId, into, e.text, e.origin),
      sources: { ...e.sources, memoryIds: [...(e.sources.memoryIds ?? []), e._id] },
      recall: { count: 0 },
      createdAt: at,
      updatedAt: at,
    });
    await store.memories.retire([e._id], 'merged', at, { mergedInto: entry._id });
    owners.add(e.ownerId);
  }
  // Warm indexes in every process re-read both people's scopes.
  for (const ownerId of owners) {
    await deps.memoryVersions?.bump({ ownerId, subjectId: from });
    await deps.memoryVersions?.bump({ ownerId, subjectId: into });
  }
  return entries.length;
}
