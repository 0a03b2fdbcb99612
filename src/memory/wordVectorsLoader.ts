// The process's English word vectors for offline recall: the compact file the gateway ships
// (src/memory/wordVectorsFile.ts, 2 MB), read once per process and only when a recall first needs
// them; a missing or unreadable file leaves recall as it was without them.
import { readWordVectorsFile } from './wordVectorsFile.js';
import type { WordVectors } from './wordVectors.js';

/** The process's word vectors: loaded on first ask, never before (a process that never recalls pays nothing). */
export interface WordVectorSource {
  /** The vectors once loaded; the first call starts the load and returns undefined until it is done. */
  get(): WordVectors | undefined;
  /** Resolves when the load is over: the vectors, or undefined if they cannot be had. */
  ready(): Promise<WordVectors | undefined>;
  /** Why the vectors are unavailable, once the load has failed. */
  readonly error: unknown;
}

export function lazyWordVectors(load: () => Promise<WordVectors>): WordVectorSource {
  let loaded: WordVectors | undefined;
  let loading: Promise<WordVectors | undefined> | undefined;
  let error: unknown;
  const start = (): Promise<WordVectors | undefined> =>
    (loading ??= load().then(
      (v) => (loaded = v),
      (err: unknown) => {
        error = err;
        return undefined;
      },
    ));
  return {
    get: () => {
      if (!loaded) void start();
      return loaded;
    },
    ready: start,
    get error() {
      return error;
    },
  };
}

let shared: WordVectorSource | undefined;

/** One source per process, over the shipped file. */
export function sharedWordVectors(): WordVectorSource {
  return (shared ??= lazyWordVectors(() => readWordVectorsFile()));
}
