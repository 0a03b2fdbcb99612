// How a working window's entries are stored: each one a BSON document packed into one binary
// field. FerretDB's cost of reading or writing a document grows with its number of fields (a
// window at WINDOW_TRIM_AT entries of about fifteen fields each took ~35 ms to read and ~40 ms to
// update; packed, ~7 and ~11), and nothing ever queries inside an entry. Windows written before
// hold plain entries, which read the same.
import { BSON, Binary } from 'mongodb';
import type { SessionWindow, WindowEntry } from '../domain/model.js';

/** An entry as stored: packed, or plain as older windows hold it. */
export type StoredEntry = Binary | WindowEntry;

/** The window document as stored. */
export type StoredWindow = Omit<SessionWindow, 'entries' | 'seed'> & {
  entries: Record<string, StoredEntry>;
  seed?: StoredEntry[];
};

export const packEntry = (e: WindowEntry): Binary => new Binary(BSON.serialize(e, { ignoreUndefined: true }));

/** Undefined for something that is neither a packed nor a plain entry (the window's readers skip it). */
export function unpackEntry(stored: unknown): WindowEntry | undefined {
  if (stored instanceof Binary) return BSON.deserialize(stored.value()) as WindowEntry;
  return stored && typeof stored === 'object' ? (stored as WindowEntry) : undefined;
}

const unpacked = (stored: readonly unknown[]): WindowEntry[] =>
  stored.map(unpackEntry).filter((e): e is WindowEntry => e !== undefined);

export function unpackWindow(w: StoredWindow): SessionWindow {
  const { entries = {}, seed, ...rest } = w;
  const read = Object.fromEntries(unpacked(Object.values(entries)).map((e) => [e._id, e]));
  return { ...rest, entries: read, ...(seed ? { seed: unpacked(seed) } : {}) };
}

export const packWindow = (w: SessionWindow): StoredWindow => {
  const { entries, seed, ...rest } = w;
  const packed = Object.fromEntries(Object.entries(entries).map(([id, e]) => [id, packEntry(e)]));
  return { ...rest, entries: packed, ...(seed ? { seed: seed.map(packEntry) } : {}) };
};
