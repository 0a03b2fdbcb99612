// The packed form of a memory index's snapshot part (src/memory/indexSnapshot.ts): many entries
// in one binary, laid out by column so a cold load decodes each column in one pass — the ids and
// texts as one UTF-8 block each (one decode, then slices), the keyword tokens already counted
// against a dictionary (the index build skips tokenising, the dearest part of it), and the
// vectors as one float32 block copied into the index's rows. Compressed with zlib (its checksum
// rejects a damaged part). Pure: no I/O. Any doubt about a part — wrong magic, another format,
// a length or code out of range — throws `SnapshotFormatError`, and the caller loads from the
// store instead.
import { isUtf8 } from 'node:buffer';
import { promisify } from 'node:util';
import { deflate, inflate } from 'node:zlib';
import { z } from 'zod';
import { MEMORY_KINDS, MEMORY_VISIBILITIES, type MemoryOrigin } from '../domain/model.js';
import type { IndexEntry } from './memoryIndex.js';

const MAGIC = 0x534d4752; // "RGMS"
/** Bump whenever the layout, or what `keywordTokens` returns for a text, changes: older parts are then refused. */
export const SNAPSHOT_FORMAT = 1;
/** Uncompressed bytes per part at most (a part is one document, far below BSON's 16 MB). */
export const PART_BYTES = 4 * 1024 * 1024;

export class SnapshotFormatError extends Error {}

/** One entry as packed: the index entry, its keyword tokens, whether it names its person, its vector. */
export interface PackEntry {
  entry: IndexEntry;
  tokens: readonly string[];
  naming: boolean;
  vector?: Float32Array;
}

/** A part as unpacked, by column; entry i's tokens are `termIds/termTfs[termStart[i] .. termStart[i+1])`. */
export interface UnpackedPart {
  dims: number;
  entries: IndexEntry[];
  naming: Uint8Array;
  docLen: Uint32Array;
  terms: string[];
  termStart: Uint32Array;
  termIds: Uint32Array;
  termTfs: Uint32Array;
  hasVector: Uint8Array;
  vectors: PackedVectors;
}

/**
 * The vectors of the entries that have one, in entry order: vector v has `counts[v]` stored
 * values — all `dims` of them when it equals `dims` (dense), else only its non-zero components,
 * whose positions are the next `counts[v]` of `positions` (the offline embedder's hashed vectors
 * are nine tenths zeros: a cold load then writes a tenth of the floats).
 */
export interface PackedVectors {
  counts: Uint16Array;
  positions: Uint16Array;
  values: Float32Array;
}

const originSchema = z.object({ dialogueId: z.string().min(1), scope: z.enum(['private', 'group']) }).strict();
const KIND_CODE = new Map<string, number>(MEMORY_KINDS.map((k, i) => [k, i]));
const VISIBILITY_CODE = new Map<string, number>(MEMORY_VISIBILITIES.map((v, i) => [v, i + 1]));
const F_VECTOR = 1;
const F_NAMING = 2;

/** Bytes one entry takes at most, roughly (how entries are split into parts). */
export function packedSizeOf(e: PackEntry, dims: number): number {
  const n = e.vector ? sparseCount(e.vector, dims) : 0;
  const vector = n === dims ? dims * 4 : n * 6;
  return 64 + e.entry.id.length * 3 + e.entry.text.length * 3 + e.tokens.length * 8 + vector;
}

/** Splits entries into runs whose packed size stays under `PART_BYTES`. */
export function splitIntoParts(entries: readonly PackEntry[], dims: number, limit = PART_BYTES): PackEntry[][] {
  const parts: PackEntry[][] = [];
  let current: PackEntry[] = [];
  let size = 0;
  for (const e of entries) {
    const n = packedSizeOf(e, dims);
    if (current.length > 0 && size + n > limit) {
      parts.push(current);
      current = [];
      size = 0;
    }
    current.push(e);
    size += n;
  }
  if (current.length > 0) parts.push(current);
  return parts;
}

// ---- writing ----

class Writer {
  private buf = new Uint8Array(1 << 16);
  private view = new DataView(this.buf.buffer);
  length = 0;

  private room(n: number): void {
    if (this.length + n <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.length + n));
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }
  u8(v: number): void {
    this.room(1);
    this.buf[this.length++] = v;
  }
  u16(v: number): void {
    this.room(2);
    this.view.setUint16(this.length, v, true);
    this.length += 2;
  }
  u32(v: number): void {
    this.room(4);
    this.view.setUint32(this.length, v, true);
    this.length += 4;
  }
  f64(v: number): void {
    this.room(8);
    this.view.setFloat64(this.length, v, true);
    this.length += 8;
  }
  varint(v: number): void {
    let n = v;
    while (n >= 0x80) {
      this.u8((n & 0x7f) | 0x80);
      n = Math.floor(n / 128);
    }
    this.u8(n);
  }
  bytes(b: Uint8Array): void {
    this.room(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
  }
  align4(): void {
    while (this.length % 4 !== 0) this.u8(0);
  }
  done(): Uint8Array {
    return this.buf.slice(0, this.length);
  }
}

const utf8 = new TextEncoder();

/** Strings as one UTF-8 block plus each one's UTF-16 length. */
function writeStrings(w: Writer, strings: readonly string[]): void {
  const block = utf8.encode(strings.join(''));
  w.u32(strings.length);
  for (const s of strings) w.varint(s.length);
  w.u32(block.length);
  w.bytes(block);
}

/** A dictionary of distinct values, in first-seen order; `code` gives a value's index. */
function dictionary<T>(values: Iterable<T>, key: (v: T) => string): { list: T[]; code: Map<string, number> } {
  const list: T[] = [];
  const code = new Map<string, number>();
  for (const v of values) {
    const k = key(v);
    if (!code.has(k)) {
      code.set(k, list.length);
      list.push(v);
    }
  }
  return { list, code };
}

const originKey = (o: MemoryOrigin): string => JSON.stringify({ dialogueId: o.dialogueId, scope: o.scope });

/** Packs entries (all with `dims`-value vectors or none) into one uncompressed part. */
export function packPart(entries: readonly PackEntry[], dims: number): Uint8Array {
  const w = new Writer();
  w.u32(MAGIC);
  w.u16(SNAPSHOT_FORMAT);
  w.u16(dims);
  w.u32(entries.length);
  writeStrings(
    w,
    entries.map((e) => e.entry.id),
  );
  writeStrings(
    w,
    entries.map((e) => e.entry.text),
  );
  const origins = dictionary(
    entries.flatMap((e) => (e.entry.origin ? [e.entry.origin] : [])),
    originKey,
  );
  writeStrings(w, [...origins.code.keys()]);
  const terms = dictionary(
    entries.flatMap((e) => e.tokens),
    (t) => t,
  );
  writeStrings(w, terms.list);
  const counted = entries.map((e) => countTerms(e.tokens, terms.code));
  w.u32(counted.reduce((n, c) => n + c.size, 0));
  entries.forEach((e, i) => writeEntry(w, e, dims, origins.code, counted[i]!));
  writeVectors(
    w,
    entries.flatMap((e) => (e.vector ? [e.vector] : [])),
    dims,
  );
  return w.done();
}

/** Values stored of a vector: sparse when that is smaller (a position of 2 bytes and a value of 4 per non-zero component). */
function sparseCount(v: Float32Array, dims: number): number {
  let nz = 0;
  for (let j = 0; j < dims; j++) if (v[j] !== 0) nz++;
  return nz * 6 < dims * 4 ? nz : dims;
}

const asBytes = (a: Uint16Array | Float32Array): Uint8Array => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

function writeVectors(w: Writer, vectors: readonly Float32Array[], dims: number): void {
  const counts = Uint16Array.from(vectors, (v) => sparseCount(v, dims));
  let positions = 0;
  let values = 0;
  for (const n of counts) {
    values += n;
    if (n !== dims) positions += n;
  }
  const pos = new Uint16Array(positions);
  const val = new Float32Array(values);
  let p = 0;
  let q = 0;
  vectors.forEach((v, i) => {
    if (counts[i] === dims) {
      val.set(v.subarray(0, dims), q);
      q += dims;
      return;
    }
    for (let j = 0; j < dims; j++)
      if (v[j] !== 0) {
        pos[p++] = j;
        val[q++] = v[j]!;
      }
  });
  w.u32(positions);
  w.u32(values);
  w.bytes(asBytes(counts));
  w.bytes(asBytes(pos));
  w.align4();
  w.bytes(asBytes(val));
}

/** Each distinct token's dictionary id and count, in first-seen order. */
function countTerms(tokens: readonly string[], terms: Map<string, number>): Map<number, number> {
  const counts = new Map<number, number>();
  for (const t of tokens) {
    const id = terms.get(t)!;
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

function writeEntry(
  w: Writer,
  e: PackEntry,
  dims: number,
  origins: Map<string, number>,
  counts: Map<number, number>,
): void {
  const x = e.entry;
  if (e.vector && e.vector.length !== dims)
    throw new RangeError(`vector of ${x.id} has ${e.vector.length} dims, not ${dims}`);
  w.u8(KIND_CODE.get(x.kind) ?? 0);
  w.u8((e.vector ? F_VECTOR : 0) | (e.naming ? F_NAMING : 0));
  w.u8(x.visibility ? (VISIBILITY_CODE.get(x.visibility) ?? 0) : 0);
  w.varint(x.origin ? origins.get(originKey(x.origin))! + 1 : 0);
  w.f64(x.importance);
  w.f64(x.occurredAt.getTime());
  w.f64(x.updatedAt.getTime());
  w.varint(e.tokens.length);
  w.varint(counts.size);
  for (const [id, tf] of counts) {
    w.varint(id);
    w.varint(tf);
  }
}

// ---- reading ----

const bad = (what: string): never => {
  throw new SnapshotFormatError(`memory snapshot part: ${what}`);
};

class Reader {
  private readonly view: DataView;
  at = 0;

  constructor(private readonly buf: Uint8Array) {
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  }
  private need(n: number): void {
    if (this.at + n > this.buf.length) bad('truncated');
  }
  /** Claims the next `n` bytes (checked against the end) and returns where they start. */
  private take(n: number): number {
    this.need(n);
    const start = this.at;
    this.at += n;
    return start;
  }
  u8(): number {
    this.need(1);
    return this.buf[this.at++]!;
  }
  u16(): number {
    return this.view.getUint16(this.take(2), true);
  }
  u32(): number {
    return this.view.getUint32(this.take(4), true);
  }
  f64(): number {
    return this.view.getFloat64(this.take(8), true);
  }
  varint(): number {
    let v = 0;
    let scale = 1;
    for (let i = 0; i < 8; i++) {
      const b = this.u8();
      v += (b & 0x7f) * scale;
      if (b < 0x80) return v;
      scale *= 128;
    }
    return bad('varint too long');
  }
  bytes(n: number): Uint8Array {
    const start = this.take(n);
    return this.buf.subarray(start, start + n);
  }
  align4(): void {
    while (this.at % 4 !== 0) this.u8();
  }
  get left(): number {
    return this.buf.length - this.at;
  }
}

function readStrings(r: Reader, expected?: number): string[] {
  const n = r.u32();
  if (expected !== undefined && n !== expected) bad(`${n} strings, expected ${expected}`);
  if (n > r.left) bad('string count beyond the part');
  const lengths = new Array<number>(n);
  let total = 0;
  for (let i = 0; i < n; i++) total += lengths[i] = r.varint();
  const block = r.bytes(r.u32());
  // Validated, then decoded on Buffer's fast path (a fatal TextDecoder is several times slower).
  if (!isUtf8(block)) bad('invalid UTF-8');
  const text = Buffer.from(block.buffer, block.byteOffset, block.length).toString('utf8');
  if (text.length !== total) bad('string lengths do not add up');
  const out = new Array<string>(n);
  let at = 0;
  for (let i = 0; i < n; i++) {
    out[i] = text.slice(at, at + lengths[i]!);
    at += lengths[i]!;
  }
  return out;
}

function readOrigins(r: Reader): MemoryOrigin[] {
  return readStrings(r).map((json) => {
    let raw: unknown;
    try {
      raw = JSON.parse(json);
    } catch {
      return bad('an origin is not JSON');
    }
    const parsed = originSchema.safeParse(raw);
    return parsed.success ? parsed.data : bad('an origin has another shape');
  });
}

/** Unpacks one uncompressed part; throws SnapshotFormatError on anything unexpected. */
export function unpackPart(buf: Uint8Array, dims: number): UnpackedPart {
  const r = new Reader(buf);
  if (r.u32() !== MAGIC) bad('not a snapshot part');
  const format = r.u16();
  if (format !== SNAPSHOT_FORMAT) bad(`format ${format}, this version reads ${SNAPSHOT_FORMAT}`);
  if (r.u16() !== dims) bad('vectors of another size');
  const count = r.u32();
  if (count > buf.length) bad('entry count beyond the part');
  const ids = readStrings(r, count);
  const texts = readStrings(r, count);
  const origins = readOrigins(r);
  const terms = readStrings(r);
  const pairs = r.u32();
  if (pairs > r.left) bad('token count beyond the part');
  const out: UnpackedPart = {
    dims,
    entries: new Array<IndexEntry>(count),
    naming: new Uint8Array(count),
    docLen: new Uint32Array(count),
    terms,
    termStart: new Uint32Array(count + 1),
    termIds: new Uint32Array(pairs),
    termTfs: new Uint32Array(pairs),
    hasVector: new Uint8Array(count),
    vectors: { counts: new Uint16Array(0), positions: new Uint16Array(0), values: new Float32Array(0) },
  };
  const ctx = { ids, texts, origins, pairs: 0 };
  for (let i = 0; i < count; i++) readEntry(r, out, i, ctx);
  if (ctx.pairs !== pairs) bad('token pairs do not add up');
  readVectors(r, out);
  return out;
}

interface EntryContext {
  ids: string[];
  texts: string[];
  origins: MemoryOrigin[];
  /** Token pairs read so far. */
  pairs: number;
}

function readEntry(r: Reader, out: UnpackedPart, i: number, ctx: EntryContext): void {
  const kind = MEMORY_KINDS[r.u8()] ?? bad('unknown kind');
  const flags = r.u8();
  const vis = r.u8();
  const visibility = vis === 0 ? undefined : (MEMORY_VISIBILITIES[vis - 1] ?? bad('unknown visibility'));
  const o = r.varint();
  const origin = o === 0 ? undefined : (ctx.origins[o - 1] ?? bad('origin out of range'));
  const importance = r.f64();
  const occurredAt = r.f64();
  const updatedAt = r.f64();
  if (!Number.isFinite(importance) || !Number.isFinite(occurredAt) || !Number.isFinite(updatedAt))
    bad('a number is not finite');
  const entry: IndexEntry = {
    id: ctx.ids[i]!,
    kind,
    text: ctx.texts[i]!,
    importance,
    occurredAt: new Date(occurredAt),
    updatedAt: new Date(updatedAt),
  };
  if (origin) entry.origin = origin;
  if (visibility) entry.visibility = visibility;
  out.entries[i] = entry;
  out.naming[i] = flags & F_NAMING ? 1 : 0;
  out.hasVector[i] = flags & F_VECTOR ? 1 : 0;
  out.docLen[i] = r.varint();
  const distinct = r.varint();
  let sum = 0;
  if (ctx.pairs + distinct > out.termIds.length) bad('more token pairs than announced');
  for (let j = 0; j < distinct; j++) {
    const id = r.varint();
    const tf = r.varint();
    if (id >= out.terms.length || tf === 0) bad('a token out of range');
    out.termIds[ctx.pairs] = id;
    out.termTfs[ctx.pairs++] = tf;
    sum += tf;
  }
  if (sum !== out.docLen[i]) bad('token counts do not add up');
  out.termStart[i + 1] = ctx.pairs;
}

function readVectors(r: Reader, out: UnpackedPart): void {
  let n = 0;
  for (const h of out.hasVector) n += h;
  const positions = r.u32();
  const values = r.u32();
  if (positions > r.left || values > r.left) bad('vector sizes beyond the part');
  const counts = typedView(r.bytes(n * 2), Uint16Array);
  const pos = typedView(r.bytes(positions * 2), Uint16Array);
  r.align4();
  const val = typedView(r.bytes(values * 4), Float32Array);
  if (r.left !== 0) bad('bytes after the vectors');
  let p = 0;
  let q = 0;
  for (const c of counts) {
    if (c > out.dims) bad('a vector longer than its size');
    q += c;
    if (c !== out.dims) p += c;
  }
  if (p !== positions || q !== values) bad('vector sizes do not add up');
  for (const j of pos) if (j >= out.dims) bad('a vector position out of range');
  out.vectors = { counts, positions: pos, values: val };
}

/** A typed view of little-endian bytes (this runs on little-endian hosts: x64, arm64); copied when misaligned. */
function typedView<T extends Uint16Array | Float32Array>(
  bytes: Uint8Array,
  Type: { new (b: ArrayBufferLike, o: number, n: number): T; BYTES_PER_ELEMENT: number },
): T {
  const size = Type.BYTES_PER_ELEMENT;
  const aligned = bytes.byteOffset % size === 0 ? bytes : new Uint8Array(bytes); // a copy (a Buffer's slice is a view)
  return new Type(aligned.buffer, aligned.byteOffset, aligned.length / size);
}

// ---- compression ----

const deflateAsync = promisify(deflate);
const inflateAsync = promisify(inflate);

/** zlib (off the event loop, in libuv's pool): sparse vectors and repeated words shrink several times. */
export async function compressPart(packed: Uint8Array): Promise<Uint8Array> {
  return await deflateAsync(packed, { level: 6 });
}

/** Inflates a stored part; a damaged one (zlib's checksum, a truncation) throws SnapshotFormatError. */
export async function decompressPart(stored: Uint8Array): Promise<Uint8Array> {
  try {
    // Large output chunks: fewer callbacks from the pool and less to join at the end.
    return await inflateAsync(stored, { maxOutputLength: PART_BYTES * 2, chunkSize: 1 << 20 }); // a Buffer: a Uint8Array
  } catch (err) {
    throw new SnapshotFormatError(`memory snapshot part: not inflatable (${String(err)})`);
  }
}
