// Snapshots of the per-process memory indexes (src/memory/indexSnapshot.ts), so a cold process
// loads a scope by `_id` instead of listing its entries (a scan on FerretDB: 17 s for 100k).
// Per scope one head document (derived `_id`: the scope's version at snapshot time, the
// embedder, the part ids) and its parts (packed binaries of ≤ 4 MB, ids made of the head's id
// and a generation, so a new snapshot never overwrites parts a reader may be reading). Every
// read and write is by `_id`: parts first, then the head that names them, then the previous
// head's parts are deleted. The head is validated here (zod); a part's bytes by the unpacker.
import { Binary } from 'mongodb';
import { z } from 'zod';
import type { Collections } from './collections.js';
import { derivedId, newId } from '../domain/ids.js';
import { memoryScopeIdOf, type ScopeRef } from './memoryScopes.js';

export interface MemorySnapshotDoc {
  _id: string;
  kind: 'head' | 'part';
  /** Parts: the packed, compressed bytes. */
  data?: Binary;
  format?: number;
  version?: string;
  embedderId?: string;
  dims?: number;
  count?: number;
  parts?: string[];
  writtenAt?: Date;
}

const headSchema = z.object({
  _id: z.string(),
  kind: z.literal('head'),
  format: z.number().int(),
  version: z.string().regex(/^\d+$/),
  embedderId: z.string(),
  dims: z.number().int().min(1).max(65535),
  count: z.number().int().min(0),
  parts: z.array(z.string().min(1)).max(100_000),
  writtenAt: z.date(),
});

export type SnapshotHead = Omit<z.infer<typeof headSchema>, '_id' | 'kind'>;

const partSchema = z.object({ _id: z.string(), kind: z.literal('part'), data: z.instanceof(Binary) });

export const snapshotHeadIdOf = (s: ScopeRef): string => derivedId('msn', memoryScopeIdOf(s));

export class MemorySnapshotRepo {
  constructor(private readonly c: Collections) {}

  /** The scope's head; `corrupt` when a document is there but not a head this version can read. */
  async head(s: ScopeRef): Promise<SnapshotHead | 'corrupt' | undefined> {
    const doc = await this.c.memorySnapshots.findOne({ _id: snapshotHeadIdOf(s) });
    if (!doc) return undefined;
    const parsed = headSchema.safeParse(doc);
    if (!parsed.success) return 'corrupt';
    const { _id: _, kind: __, ...head } = parsed.data;
    return head;
  }

  /** The parts' stored bytes in order (point reads, in parallel); undefined when one is missing or malformed. */
  async parts(ids: readonly string[]): Promise<Uint8Array[] | undefined> {
    const docs = await Promise.all(ids.map((_id) => this.c.memorySnapshots.findOne({ _id })));
    const out: Uint8Array[] = [];
    for (const doc of docs) {
      const parsed = partSchema.safeParse(doc);
      if (!parsed.success) return undefined;
      const b = parsed.data.data;
      out.push(b.buffer.subarray(0, b.position));
    }
    return out;
  }

  /**
   * Stores a snapshot: its parts, then its head (which replaces the previous one at once for
   * every reader), then the previous head's parts. Returns the head as stored.
   */
  async write(s: ScopeRef, head: Omit<SnapshotHead, 'parts'>, parts: readonly Uint8Array[]): Promise<SnapshotHead> {
    const headId = snapshotHeadIdOf(s);
    const previous = await this.head(s);
    const generation = newId('gen', head.writtenAt);
    const ids = parts.map((_, i) => `${headId}.${generation}.${i}`);
    for (const [i, bytes] of parts.entries())
      await this.c.memorySnapshots.insertOne({ _id: ids[i]!, kind: 'part', data: new Binary(bytes) });
    const stored: SnapshotHead = { ...head, parts: ids };
    await this.c.memorySnapshots.replaceOne({ _id: headId }, { kind: 'head', ...stored }, { upsert: true });
    if (previous && previous !== 'corrupt') await this.deleteParts(previous.parts);
    return stored;
  }

  /** Deletes the scope's snapshot (BR-006: nothing deleted may come back from it); head first. */
  async invalidate(s: ScopeRef): Promise<void> {
    const headId = snapshotHeadIdOf(s);
    const previous = await this.head(s);
    if (previous === undefined) return;
    await this.c.memorySnapshots.deleteOne({ _id: headId });
    if (previous !== 'corrupt') await this.deleteParts(previous.parts);
  }

  private async deleteParts(ids: readonly string[]): Promise<void> {
    for (const _id of ids) await this.c.memorySnapshots.deleteOne({ _id });
  }
}
