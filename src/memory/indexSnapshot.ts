// A memory index written down and read back (the cold start of issue 34): a process loading a
// scope for the first time reads the scope's snapshot by `_id` (src/store/memorySnapshots.ts)
// instead of listing its entries — a scan that decodes every document on FerretDB — and
// rebuilds the index from packed columns (snapshotPacking.ts) without tokenising a text or
// decoding a vector one at a time. The caller then brings it current with the change log
// (versions.ts). Anything doubtful is a reason to load from the store instead, never an error.
import { calledNameIn } from '../domain/calledName.js';
import type { MemorySnapshotRepo, SnapshotHead } from '../store/memorySnapshots.js';
import type { MemoryScope } from './versions.js';
import { MemoryIndex, type IndexEntry } from './memoryIndex.js';
import {
  compressPart,
  decompressPart,
  packPart,
  SNAPSHOT_FORMAT,
  SnapshotFormatError,
  splitIntoParts,
  unpackPart,
  type PackEntry,
  type UnpackedPart,
} from './snapshotPacking.js';
import { keywordTokens } from './textFeatures.js';
import { termCounts } from './keywordPostings.js';

export type SnapshotPort = Pick<MemorySnapshotRepo, 'head' | 'parts' | 'write'>;

/** What the snapshot's vectors must have been made by. */
export interface SnapshotEmbedder {
  id: string;
  dims: number;
}

export type SnapshotRead = { index: MemoryIndex; version: string } | { fallback: string };

/** The scope's index as its snapshot holds it, with the version it is current at; or why not. */
export async function readSnapshot(port: SnapshotPort, scope: MemoryScope, e: SnapshotEmbedder): Promise<SnapshotRead> {
  const head = await port.head(scope);
  const unusable = whyUnusable(head, e);
  if (unusable || !head || head === 'corrupt') return { fallback: unusable ?? 'no snapshot' };
  try {
    const index = await indexFromParts(
      head.dims,
      head.count,
      limited(head.parts, READS_AT_ONCE, (id) => port.parts([id])),
    );
    if (!index) return { fallback: 'a part is missing or malformed' };
    if (index.size !== head.count) return { fallback: `holds ${index.size} entries, its head says ${head.count}` };
    return { index, version: head.version };
  } catch (err) {
    if (err instanceof SnapshotFormatError) return { fallback: err.message };
    throw err;
  }
}

/** Parts read at once: enough to keep the server busy while this process builds, not a burst of every part. */
const READS_AT_ONCE = 4;

/** `read` of each id, in order, at most `n` running at a time; the promises in the ids' order. */
function limited<T>(ids: readonly string[], n: number, read: (id: string) => Promise<T>): Array<Promise<T>> {
  const out: Array<Promise<T>> = [];
  ids.forEach((id, i) => {
    const before = i >= n ? out[i - n]!.then(noop, noop) : Promise.resolve();
    out.push(before.then(() => read(id)));
  });
  return out;
}
const noop = (): void => undefined;

/** Why a head cannot serve this process; undefined when it can. */
export function whyUnusable(head: SnapshotHead | 'corrupt' | undefined, e: SnapshotEmbedder): string | undefined {
  if (head === undefined) return 'no snapshot';
  if (head === 'corrupt') return 'unreadable head';
  if (head.format !== SNAPSHOT_FORMAT) return `format ${head.format}, this version reads ${SNAPSHOT_FORMAT}`;
  if (head.embedderId !== e.id || head.dims !== e.dims) return `vectors of ${head.embedderId}, not ${e.id}`;
  return undefined;
}

/**
 * Builds an index from stored parts, given as reads already under way: each part is inflated
 * (off the event loop) and added as soon as it and those before it have arrived, so the server
 * reading the later parts and this process building from the earlier ones overlap. Undefined
 * when a part is missing.
 */
export async function indexFromParts(
  dims: number,
  count: number,
  reads: ReadonlyArray<Promise<Uint8Array[] | undefined>>,
): Promise<MemoryIndex | undefined> {
  // Every read is awaited (a failure after the first must not go unhandled), inflated as it lands.
  const inflated = reads.map(async (read) => {
    const stored = await read;
    return stored?.length === 1 ? decompressPart(stored[0]!) : undefined;
  });
  const settled = Promise.allSettled(inflated);
  const index = new MemoryIndex(dims, count + 16);
  try {
    for (const next of inflated) {
      const packed = await next;
      if (!packed) return undefined;
      const part = unpackPart(packed, dims);
      checkTokens(part);
      index.appendPart(part);
    }
    return index;
  } finally {
    await settled;
  }
}

/**
 * A part's stored tokens must be what this version's tokeniser makes of its texts (a release
 * that changes it without a new SNAPSHOT_FORMAT would otherwise recall differently from a full
 * load): a few entries of every part are tokenised again and compared.
 */
function checkTokens(part: UnpackedPart): void {
  const n = part.entries.length;
  for (const i of new Set([0, n >> 1, n - 1])) {
    const e = part.entries[i];
    if (!e) continue;
    const want = termCounts(keywordTokens(e.text));
    const got = new Map<string, number>();
    for (let j = part.termStart[i]!; j < part.termStart[i + 1]!; j++)
      got.set(part.terms[part.termIds[j]!]!, part.termTfs[j]!);
    const same = want.size === got.size && [...want].every(([t, tf]) => got.get(t) === tf);
    if (!same || (part.naming[i] === 1) !== Boolean(calledNameIn(e.text)))
      throw new SnapshotFormatError(`memory snapshot part: entry ${e.id} was tokenised differently`);
  }
}

/** A snapshot's content taken from an index at one moment (synchronously: the caller pairs it with its version). */
export interface Captured {
  rows: Array<{ entry: IndexEntry; vector?: Float32Array }>;
  dims: number;
}

export function capture(index: MemoryIndex): Captured {
  return { rows: index.livingRows(), dims: index.dims };
}

/** Rows tokenised per slice, yielding between slices: a background task must not hold the event loop. */
const SLICE = 2000;
const yieldNow = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The stored parts of a captured index. Entries in the order a full load would add them
 * (updatedAt, then id), so a snapshot-loaded index breaks ties as a listed one does.
 */
export async function packCaptured(c: Captured): Promise<Uint8Array[]> {
  const rows = [...c.rows].sort(
    (a, b) =>
      a.entry.updatedAt.getTime() - b.entry.updatedAt.getTime() ||
      (a.entry.id < b.entry.id ? -1 : a.entry.id > b.entry.id ? 1 : 0),
  );
  const entries: PackEntry[] = [];
  for (let i = 0; i < rows.length; i += SLICE) {
    for (const r of rows.slice(i, i + SLICE))
      entries.push({
        entry: r.entry,
        tokens: keywordTokens(r.entry.text),
        naming: Boolean(calledNameIn(r.entry.text)),
        ...(r.vector ? { vector: r.vector } : {}),
      });
    await yieldNow();
  }
  const out: Uint8Array[] = [];
  for (const part of splitIntoParts(entries, c.dims)) {
    out.push(await compressPart(packPart(part, c.dims)));
    await yieldNow();
  }
  return out;
}
