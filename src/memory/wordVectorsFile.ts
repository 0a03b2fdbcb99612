// The compact file of English word vectors the gateway ships (src/memory/data/): GloVe 6B 100-d
// (public domain, PDDL), its VOCABULARY most frequent words, each row quantised to int8 with its
// own scale — 2 MB instead of the 300 MB JSON package they come from, read in milliseconds. On
// LoCoMo dev (bench/locomo.ts) 20k words recalled as well as 50k or 100k (the rarer words are
// names and misspellings the keywords match anyway), and int8 rows as well as float32.
// Written by scripts/buildWordVectors.ts. Layout, little-endian:
//   u32 header length · header JSON {format, dims, count, wordBytes, source}
//   · words, UTF-8, "\n"-separated (wordBytes) · count f32 row scales · count × dims i8 values
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { WordVectors } from './wordVectors.js';

export const VOCABULARY = 20_000;
export const WORD_VECTORS_FILE = fileURLToPath(new URL('./data/glove-6b-100d-20k.bin', import.meta.url));
const FORMAT = 'rainbow-word-vectors/1';

/** Words most frequent first and their vectors, row-major. */
export interface RawWordVectors {
  words: string[];
  values: Float32Array;
  dims: number;
}

const headerSchema = z.object({
  format: z.literal(FORMAT),
  dims: z.number().int().positive(),
  count: z.number().int().positive(),
  wordBytes: z.number().int().nonnegative(),
  source: z.string(),
});

export function encodeWordVectors(v: RawWordVectors, source: string): Buffer {
  const count = v.words.length;
  if (v.words.some((w) => w.includes('\n'))) throw new Error('a word with a line break cannot be stored');
  const wordBytes = Buffer.from(v.words.join('\n'), 'utf8');
  const header = Buffer.from(
    JSON.stringify({ format: FORMAT, dims: v.dims, count, wordBytes: wordBytes.length, source }),
  );
  const scales = new Float32Array(count);
  const rows = new Int8Array(count * v.dims);
  for (let r = 0; r < count; r++) {
    const row = v.values.subarray(r * v.dims, (r + 1) * v.dims);
    const scale = Math.max(...row.map(Math.abs)) / 127 || 1;
    scales[r] = scale;
    row.forEach((x, j) => (rows[r * v.dims + j] = Math.round(x / scale)));
  }
  const length = Buffer.alloc(4);
  length.writeUInt32LE(header.length);
  return Buffer.concat([length, header, wordBytes, Buffer.from(scales.buffer), Buffer.from(rows.buffer)]);
}

export function decodeWordVectors(buf: Buffer): WordVectors {
  const headerLength = buf.readUInt32LE(0);
  const header = headerSchema.parse(JSON.parse(buf.subarray(4, 4 + headerLength).toString('utf8')));
  const { dims, count } = header;
  let at = 4 + headerLength;
  const words = buf
    .subarray(at, at + header.wordBytes)
    .toString('utf8')
    .split('\n');
  at += header.wordBytes;
  if (words.length !== count || buf.length !== at + count * 4 + count * dims)
    throw new Error(`word vectors file does not match its header (${count} words of ${dims} dims)`);
  // Copied out: the buffer's offset need not be aligned for a Float32Array view.
  const scales = new Float32Array(buf.buffer.slice(buf.byteOffset + at, buf.byteOffset + at + count * 4));
  const rows = new Int8Array(buf.buffer, buf.byteOffset + at + count * 4, count * dims);
  const values = new Float32Array(count * dims);
  for (let r = 0; r < count; r++) {
    const scale = scales[r]!;
    for (let j = r * dims; j < (r + 1) * dims; j++) values[j] = rows[j]! * scale;
  }
  return new WordVectors(words, values, dims);
}

export async function readWordVectorsFile(path = WORD_VECTORS_FILE): Promise<WordVectors> {
  return decodeWordVectors(await readFile(path));
}
