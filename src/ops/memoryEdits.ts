// Operator corrections of memories (the console's retire, edit and visibility). Nothing is
// deleted: a retired entry becomes `pruned`; an edit stores the new text as a new entry that
// supersedes the old one, so the supersede chain shows what the operator changed and when; a
// visibility change decides where the entry may be recalled (SPEC §13). Written under the
// scope's state guard like every memory write, then the scope's version is bumped with the ids,
// so every process's warm index re-reads them (the new entry is embedded on that read).
import { GatewayError } from '../errors.js';
import type { MemoryEntry, MemoryVisibility } from '../domain/model.js';
import type { OwnerScope } from '../store/memories.js';
import { clampMemoryText, dedupeKeyOf } from '../memory/normalize.js';
import type { OpsDeps } from './opsDeps.js';

type Deps = Pick<OpsDeps, 'store' | 'memoryVersions' | 'log'>;

const scopeOf = (m: MemoryEntry): OwnerScope =>
  m.subjectId === undefined ? { ownerId: m.ownerId } : { ownerId: m.ownerId, subjectId: m.subjectId };

async function activeMemory(deps: Deps, id: string): Promise<MemoryEntry> {
  const m = await deps.store.memories.get(id);
  if (!m) throw new GatewayError('NOT_FOUND', `no memory with id ${id}`);
  if (m.status !== 'active') throw new GatewayError('BAD_REQUEST', `memory ${id} is ${m.status}, not active`);
  return m;
}

/** The write is done either way: a version that could not be bumped is logged, not thrown. */
async function bump(deps: Deps, scope: OwnerScope, ids: string[]): Promise<void> {
  await deps.memoryVersions
    ?.bump(scope, ids)
    .catch((err: unknown) => deps.log.error({ err, scope }, 'memory version not bumped after an operator edit'));
}

/** Takes an active memory out of recall (status `pruned`); it stays stored. */
export async function retireMemory(deps: Deps, id: string, now: Date): Promise<MemoryEntry> {
  const first = await activeMemory(deps, id);
  const scope = scopeOf(first);
  await deps.store.memories.guarded(scope, async () => {
    await activeMemory(deps, id); // still active once the guard is held
    await deps.store.memories.retire([id], 'pruned', now);
  });
  await bump(deps, scope, [id]);
  deps.log.info({ memoryId: id }, 'memory retired by an operator');
  return (await deps.store.memories.get(id))!;
}

/**
 * Rewrites an active memory: the new text becomes an entry of the same owner, subject, kind and
 * provenance that supersedes the old one. Text equal to a stored entry reuses that entry.
 */
export async function editMemory(deps: Deps, id: string, text: string, now: Date): Promise<MemoryEntry> {
  const first = await activeMemory(deps, id);
  const { config } = await deps.store.config.get();
  const maxChars = config.limits.memory_max_chars;
  const clean = text.trim();
  if (!clean) throw new GatewayError('BAD_REQUEST', 'the memory text must not be empty');
  if (Array.from(clean).length > maxChars)
    throw new GatewayError('BAD_REQUEST', `the memory text must be at most ${maxChars} characters`);
  const scope = scopeOf(first);
  const successor = await deps.store.memories.guarded(scope, async () => {
    const old = await activeMemory(deps, id);
    const dedupeKey = dedupeKeyOf(old.ownerId, old.subjectId, clampMemoryText(clean, maxChars), old.origin);
    if (dedupeKey === old.dedupeKey) throw new GatewayError('BAD_REQUEST', 'the new text says the same as the old');
    const { entry } = await deps.store.memories.insertOnce({
      ownerId: old.ownerId,
      ...(old.subjectId !== undefined ? { subjectId: old.subjectId } : {}),
      kind: old.kind,
      text: clean,
      dedupeKey,
      importance: old.importance,
      sources: { ...old.sources },
      ...(old.origin ? { origin: old.origin } : {}),
      ...(old.visibility ? { visibility: old.visibility } : {}),
      occurredAt: old.occurredAt,
      status: 'active',
      recall: { count: 0 },
      createdAt: now,
      updatedAt: now,
    });
    if (entry.status !== 'active') await deps.store.memories.reactivate(entry._id, now);
    await deps.store.memories.retire([old._id], 'superseded', now, { supersededBy: entry._id });
    return entry._id;
  });
  await bump(deps, scope, [id, successor]);
  deps.log.info({ memoryId: id, successor }, 'memory edited by an operator');
  return (await deps.store.memories.get(successor))!;
}

/**
 * Where an active memory may be recalled (SPEC §13): `shared` in every chat with its person,
 * `origin` only where it was learned (a private memory in the person's private chats). The
 * entry is rewritten in place (same id, text and provenance).
 */
export async function setMemoryVisibility(
  deps: Deps,
  id: string,
  visibility: MemoryVisibility,
  now: Date,
): Promise<MemoryEntry> {
  const first = await activeMemory(deps, id);
  const scope = scopeOf(first);
  const changed = await deps.store.memories.guarded(scope, async () => {
    const m = await activeMemory(deps, id); // still active once the guard is held
    if ((m.visibility ?? 'origin') === visibility) return false;
    await deps.store.memories.setVisibility(id, visibility, now);
    return true;
  });
  if (changed) {
    await bump(deps, scope, [id]);
    deps.log.info({ memoryId: id, visibility }, 'memory visibility set by an operator');
  }
  return (await deps.store.memories.get(id))!;
}
