// Recall quality on LoCoMo's development conversations (`BENCH_ONLY=locomo`): each conversation
// is stored as one owner's memories in the MongoDB-wire server — once as the dataset's
// observations, once as raw dialog turns (locomoData.ts) — with vectors from the offline embedder
// written with them as the app writes them; every category 1–4 question is then asked through
// the real recall path and its parts (locomoEval.ts) and scored by hit@k and coverage@k
// (locomoScore.ts).
import { join } from 'node:path';
import type { MemoryEntry } from '../src/domain/model.js';
import { projectRoot } from '../src/localServices/ferretdb.js';
import { HashedNgramEmbedder } from '../src/memory/hashedNgramEmbedder.js';
import type { Embedder } from '../src/memory/embedder.js';
import { toMemoryEmbedding } from '../src/memory/vectors.js';
import { Store } from '../src/store/store.js';
import { intFromEnv } from './config.js';
import { LOCOMO_FORMS, loadLocomo, type LocomoConversation, type LocomoForm } from './locomoData.js';
import { evaluateForm, type FormRun, type MemoriesPort, type StoredForm } from './locomoEval.js';

export interface LocomoBenchConfig {
  /** The dataset (BENCH_LOCOMO_DATA), by default the shared development split. */
  path: string;
  /** Offline embedder size (EMBEDDING_DIMS' default). */
  dims: number;
}

export function loadLocomoBenchConfig(): LocomoBenchConfig {
  return {
    path: process.env.BENCH_LOCOMO_DATA?.trim() || join(projectRoot, '..', 'shared', 'data', 'locomo-dev.json'),
    dims: intFromEnv('BENCH_LOCOMO_DIMS', 256, 8),
  };
}

export interface LocomoBenchResult {
  cfg: LocomoBenchConfig;
  embedderId: string;
  conversations: string[];
  runs: FormRun[];
  /** Evidence ids the dataset writes unreadably (left out of the questions). */
  unreadableEvidence: string[];
  insertS: number;
}

const ownerOf = (form: LocomoForm, conv: string): string => `locomo_${form}_${conv}`;

/** A conversation's memories of one form as the app stores them (vectors included). */
export async function toEntries(
  conv: LocomoConversation,
  form: LocomoForm,
  embedder: Embedder,
): Promise<{ entries: MemoryEntry[]; stored: StoredForm }> {
  const ownerId = ownerOf(form, conv.id);
  const memories = conv.memories[form];
  const vectors = await embedder.embed(memories.map((m) => m.text));
  const evidenceOf = new Map<string, readonly string[]>();
  const entries = memories.map((m, i): MemoryEntry => {
    const id = `${ownerId}_${String(i).padStart(4, '0')}`;
    evidenceOf.set(id, m.evidence);
    return {
      _id: id,
      ownerId,
      subjectId: m.speaker,
      kind: form === 'observations' ? 'fact' : 'event',
      text: m.text,
      dedupeKey: id, // texts may repeat; each memory is its own
      embedding: toMemoryEmbedding(embedder.id, vectors[i]!),
      importance: 0.5, // the dataset rates nothing: neutral for all
      sources: {},
      occurredAt: m.occurredAt,
      status: 'active',
      recall: { count: 0 },
      createdAt: m.occurredAt,
      updatedAt: m.occurredAt,
    };
  });
  return { entries, stored: { ownerId, evidenceOf } };
}

/** Scores both forms over the given memories port (the store, or entries held in memory). */
export async function evaluateLocomo(o: {
  conversations: readonly LocomoConversation[];
  embedder: Embedder;
  memories: MemoriesPort;
  stored: ReadonlyMap<LocomoForm, ReadonlyMap<string, StoredForm>>;
  progress: (line: string) => void;
}): Promise<FormRun[]> {
  const runs: FormRun[] = [];
  for (const form of LOCOMO_FORMS) {
    o.progress(`locomo: asking ${o.conversations.reduce((n, c) => n + c.questions.length, 0)} questions over ${form}`);
    runs.push(
      await evaluateForm({
        form,
        conversations: o.conversations,
        stored: o.stored.get(form)!,
        memories: o.memories,
        embedder: o.embedder,
      }),
    );
  }
  return runs;
}

/** Every form's entries and their dia_id tags, per conversation. */
export async function prepareLocomo(
  conversations: readonly LocomoConversation[],
  embedder: Embedder,
): Promise<{ entries: MemoryEntry[]; stored: Map<LocomoForm, Map<string, StoredForm>> }> {
  const entries: MemoryEntry[] = [];
  const stored = new Map<LocomoForm, Map<string, StoredForm>>();
  for (const form of LOCOMO_FORMS) {
    const byConv = new Map<string, StoredForm>();
    for (const conv of conversations) {
      const r = await toEntries(conv, form, embedder);
      entries.push(...r.entries);
      byConv.set(conv.id, r.stored);
    }
    stored.set(form, byConv);
  }
  return { entries, stored };
}

export async function benchLocomo(o: {
  mongoUri: string;
  dbName: string;
  cfg: LocomoBenchConfig;
  progress: (line: string) => void;
}): Promise<LocomoBenchResult> {
  const conversations = loadLocomo(o.cfg.path);
  const embedder = new HashedNgramEmbedder(o.cfg.dims);
  const { entries, stored } = await prepareLocomo(conversations, embedder);
  const store = await Store.connect(o.mongoUri, o.dbName);
  try {
    o.progress(`locomo: storing ${entries.length} memories of ${conversations.length} conversations (2 forms)`);
    const t = performance.now();
    await store.memories.insertMany(entries);
    const insertS = (performance.now() - t) / 1000;
    const runs = await evaluateLocomo({
      conversations,
      embedder,
      memories: store.memories,
      stored,
      progress: o.progress,
    });
    return {
      cfg: o.cfg,
      embedderId: embedder.id,
      conversations: conversations.map((c) => c.id),
      runs,
      unreadableEvidence: conversations.flatMap((c) => c.unreadableEvidence),
      insertS,
    };
  } finally {
    await store.close();
  }
}
