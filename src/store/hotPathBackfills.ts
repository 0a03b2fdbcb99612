// One-off backfills of the indexes the hot path reads by `_id` (SPEC §3 access rule), for
// documents written before those indexes existed. Each runs once per database (marked in
// `migrations`); until it has finished, the hot path falls back to a query on a miss. Started in
// the background by every process; concurrent runs write the same documents.
import type { Platform } from '../domain/model.js';
import type { Logger } from '../log.js';
import type { Store } from './store.js';
import { OUTBOX_BACKFILL } from './outbox.js';
import { MEMORY_SCOPES_BACKFILL } from './memoryScopes.js';

const BATCH = 200;

/** Every platform message id of our messages gets its outbox entry. */
async function backfillOutbox(store: Store): Promise<number> {
  const chats = new Map<string, { platform: Platform; chatId: string } | null>();
  const chatOf = async (dialogueId: string) => {
    if (!chats.has(dialogueId)) chats.set(dialogueId, (await store.dialogues.get(dialogueId))?.chat ?? null);
    return chats.get(dialogueId) ?? null;
  };
  let written = 0;
  let after: string | undefined;
  for (;;) {
    const docs = await store.c.messages
      .find(
        { ...(after ? { _id: { $gt: after } } : {}), 'delivery.platformMessageIds.0': { $exists: true } },
        { projection: { dialogueId: 1, 'delivery.platformMessageIds': 1 } },
      )
      .sort({ _id: 1 })
      .limit(BATCH)
      .toArray();
    if (docs.length === 0) return written;
    for (const m of docs) {
      const chat = await chatOf(m.dialogueId);
      if (!chat) continue;
      for (const id of m.delivery?.platformMessageIds ?? []) await store.outbox.record(chat, id, m);
      written += m.delivery?.platformMessageIds.length ?? 0;
    }
    after = docs[docs.length - 1]!._id;
  }
}

/** Every memory scope with entries gets its mark. */
async function backfillMemoryScopes(store: Store): Promise<number> {
  const rows = await store.c.memories
    .aggregate<{ _id: { ownerId: string; subjectId?: string | null } }>([
      { $group: { _id: { ownerId: '$ownerId', subjectId: '$subjectId' } } },
    ])
    .toArray();
  const at = new Date();
  for (const r of rows)
    await store.memoryScopes.mark(
      typeof r._id.subjectId === 'string'
        ? { ownerId: r._id.ownerId, subjectId: r._id.subjectId }
        : { ownerId: r._id.ownerId },
      at,
    );
  return rows.length;
}

const BACKFILLS: Array<{ name: string; run: (store: Store) => Promise<number> }> = [
  { name: OUTBOX_BACKFILL, run: backfillOutbox },
  { name: MEMORY_SCOPES_BACKFILL, run: backfillMemoryScopes },
];

/** Runs whichever backfills are not done yet; resolves when all are (failures are logged, retried next start). */
export async function runHotPathBackfills(store: Store, log: Logger): Promise<void> {
  for (const b of BACKFILLS) {
    try {
      if (await store.migrations.done(b.name)) continue;
      const started = Date.now();
      const n = await b.run(store);
      await store.migrations.markDone(b.name, new Date());
      log.info({ backfill: b.name, documents: n, ms: Date.now() - started }, 'hot-path backfill done');
    } catch (err) {
      log.warn(
        { err, backfill: b.name },
        'hot-path backfill failed; the hot path keeps its query fallback until a later start finishes it',
      );
    }
  }
}
