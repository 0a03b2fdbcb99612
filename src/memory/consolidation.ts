// Nightly memory consolidation (SPEC §4.4, seed 003 "kNN clustering + nightly compression"): per
// (owner, subject) scope, low-value entries are pruned, the rest are clustered by similarity and
// each cluster is rewritten by the model (`consolidate_memories`) into fewer refined entries
// that keep their sources; entries the model finds contradicted are superseded. It lowers the
// number of active memories without losing facts that are still true: a source the model
// neither merged nor contradicted stays active, and nothing is ever deleted.
import { z } from 'zod';
import { MEMORY_KINDS, type MemoryEmbedding, type MemoryEntry, type MemoryKind } from '../domain/model.js';
import { newId } from '../domain/ids.js';
import { runJsonTask } from '../llm/jsonTask.js';
import type { OwnerScope } from '../store/memories.js';
import { embedTexts } from './similar.js';
import { fromMemoryEmbedding } from './vectors.js';
import { chunkCluster, clusterByKnn, DEFAULT_CLUSTER_OPTIONS, type ClusterOptions, type Vectored } from './cluster.js';
import { DEFAULT_PRUNE_RULE, lowValueIds, type PruneRule } from './prune.js';
import { dedupeKeyOf, normalizeMemoryText } from './normalize.js';
import { homeOf } from '../domain/memoryOrigin.js';
import type { MemoryTaskDeps } from './taskDeps.js';

export interface ConsolidationDeps extends MemoryTaskDeps {
  now?: () => Date;
  cluster?: Partial<ClusterOptions>;
  prune?: Partial<PruneRule>;
  /** Entries per model call (a larger cluster is split). */
  maxPerCall?: number;
}

export interface ConsolidationStats {
  scopes: number;
  /** Active entries before and after. */
  before: number;
  after: number;
  /** Refined entries written. */
  refined: number;
  /** Source entries folded into a refined one. */
  merged: number;
  pruned: number;
  superseded: number;
  /** Clusters whose model call failed (their entries stay as they were). */
  failedClusters: number;
}

const TASK = 'consolidate_memories';

export const CONSOLIDATE_MEMORIES_INSTRUCTIONS = `You maintain the long-term memory an AI companion keeps about a user. Below is a group of stored memories that are similar to each other (each with its id, kind, importance and date).
Rewrite the group into fewer, better memories:
- Merge memories that state the same or closely related facts into one self-contained third-person statement that keeps every detail that is still true. List in "sourceIds" every id whose content the new memory covers.
- If a memory is contradicted by a newer one (the user moved, changed job, changed their mind), do not merge it: list it in "contradicted" as {"id": <outdated id>, "byId": <id of the memory that replaces it>}. Use the dates to decide which is newer.
- Memories that are unrelated to the others can be left out entirely: a memory you leave out of every "sourceIds" and "contradicted" stays as it is.
- Never invent facts. Keep the language of the memories. kind is one of fact, event, preference, summary, plot, reflection; importance is 0..1 (the highest of the merged ones unless the merge makes it more important). At most MAX_CHARS characters per memory.

Answer with one JSON object and nothing else:
{"entries":[{"text":"...","kind":"fact","importance":0.8,"sourceIds":["<id>","<id>"]}],"contradicted":[{"id":"<id>","byId":"<id>"}]}`;

/** `- id=<id> [<kind>] (importance <n>, <yyyy-mm-dd>) <text>`, one line per memory. */
export function renderConsolidationInput(entries: MemoryEntry[]): string {
  return [
    'Memories:',
    ...entries.map(
      (e) =>
        `- id=${e._id} [${e.kind}] (importance ${e.importance.toFixed(2)}, ${e.occurredAt.toISOString().slice(0, 10)}) ${e.text.replace(/\s*\n\s*/g, ' ').trim()}`,
    ),
  ].join('\n');
}

export const consolidationOutputSchema = z.object({
  entries: z.array(z.unknown()).catch([]),
  contradicted: z.array(z.unknown()).catch([]),
});

const refinedSchema = z.object({
  text: z.string().trim().min(1),
  kind: z.enum(MEMORY_KINDS).optional().catch(undefined),
  importance: z
    .number()
    .transform((v) => Math.min(1, Math.max(0, v)))
    .optional()
    .catch(undefined),
  sourceIds: z.array(z.string()),
});
const contradictionSchema = z.object({ id: z.string(), byId: z.string() });

export interface MergePlan {
  refined: Array<{ text: string; kind: MemoryKind; importance: number; sourceIds: string[] }>;
  contradicted: Array<{ id: string; byId: string }>;
  /** Entries of the group that stay as they are. */
  kept: string[];
  problems: string[];
}

/**
 * Checks the model's answer against the group (pure): ids outside the group are ignored, a
 * contradicted entry is not also merged, a refined text over the limit is refused (its sources
 * stay: cutting it would lose facts), a one-source rewrite that changes nothing is skipped, and
 * every entry not merged or contradicted is kept.
 */
export function planMerge(
  group: MemoryEntry[],
  output: { entries: unknown[]; contradicted: unknown[] },
  maxChars: number,
): MergePlan {
  const byId = new Map(group.map((e) => [e._id, e]));
  const problems: string[] = [];
  const contradicted: MergePlan['contradicted'] = [];
  for (const raw of output.contradicted) {
    const c = contradictionSchema.safeParse(raw);
    if (!c.success || !byId.has(c.data.id) || !byId.has(c.data.byId) || c.data.id === c.data.byId) {
      problems.push(`contradiction ignored: ${JSON.stringify(raw)}`);
      continue;
    }
    if (!contradicted.some((x) => x.id === c.data.id)) contradicted.push(c.data);
  }
  // An entry both replaced and replacing others would leave a chain pointing at a retired entry.
  const outdated = new Set(contradicted.map((c) => c.id));
  const refined: MergePlan['refined'] = [];
  const used = new Set<string>();
  for (const raw of output.entries) {
    const r = refinedSchema.safeParse(raw);
    if (!r.success) {
      problems.push(`refined entry invalid: ${r.error.issues[0]?.message ?? 'shape'}`);
      continue;
    }
    const sources = [...new Set(r.data.sourceIds)].filter((id) => byId.has(id) && !outdated.has(id) && !used.has(id));
    if (sources.length !== r.data.sourceIds.length)
      problems.push(
        `refined entry: ${r.data.sourceIds.length - sources.length} source id(s) unknown, contradicted or already merged`,
      );
    if (sources.length === 0) continue;
    if (Array.from(r.data.text).length > maxChars) {
      problems.push(`refined entry over ${maxChars} characters; its sources stay as they are`);
      continue;
    }
    const origin = sources.map((id) => byId.get(id)!);
    if (origin.length === 1 && normalizeMemoryText(origin[0]!.text) === normalizeMemoryText(r.data.text)) continue;
    for (const id of sources) used.add(id);
    refined.push({
      text: r.data.text,
      kind: r.data.kind ?? mostCommonKind(origin),
      importance: r.data.importance ?? Math.max(...origin.map((e) => e.importance)),
      sourceIds: sources,
    });
  }
  const kept = group.map((e) => e._id).filter((id) => !used.has(id) && !outdated.has(id));
  return { refined, contradicted, kept, problems };
}

function mostCommonKind(entries: MemoryEntry[]): MemoryKind {
  const counts = new Map<MemoryKind, number>();
  for (const e of entries) counts.set(e.kind, (counts.get(e.kind) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]![0];
}

/** The refined entry's provenance: its sources' ids, turns and messages; it belongs to the first source's dialogue (BR-006). */
function mergedSources(origin: MemoryEntry[]): MemoryEntry['sources'] {
  const first = origin[0]!.sources;
  const union = (pick: (s: MemoryEntry['sources']) => string[] | undefined): string[] => [
    ...new Set(origin.flatMap((e) => pick(e.sources) ?? [])),
  ];
  const turnIds = union((s) => s.turnIds);
  const messageIds = union((s) => s.messageIds);
  return {
    ...(first.dialogueId ? { dialogueId: first.dialogueId } : {}),
    ...(first.sessionId ? { sessionId: first.sessionId } : {}),
    ...(turnIds.length > 0 ? { turnIds } : {}),
    ...(messageIds.length > 0 ? { messageIds } : {}),
    memoryIds: origin.map((e) => e._id),
  };
}

type ScopeStats = Omit<ConsolidationStats, 'scopes'>;

export async function consolidateOwner(deps: ConsolidationDeps, scope: OwnerScope): Promise<ScopeStats> {
  const { store, log } = deps;
  const now = deps.now?.() ?? new Date();
  const config = await deps.config();
  const maxChars = config.limits.memory_max_chars;
  const stats: ScopeStats = { before: 0, after: 0, refined: 0, merged: 0, pruned: 0, superseded: 0, failedClusters: 0 };
  const entries = await store.memories.activeInScope(scope);
  stats.before = entries.length;

  const prunable = lowValueIds(entries, now, { ...DEFAULT_PRUNE_RULE, ...deps.prune });
  stats.pruned = await store.memories.retire(prunable, 'pruned', now);
  const pruned = new Set(prunable);
  const live = entries.filter((e) => !pruned.has(e._id));

  const vectored = await vectorsOf(deps, live);
  const byId = new Map(live.map((e) => [e._id, e]));
  // Clustered within each home (SPEC §13): a merge never joins words learned in different places.
  const homes = vectored ? groupBy(vectored, (v) => homeOf(byId.get(v.id)!.origin)) : [];
  const clusters = homes.flatMap((vs) => clusterByKnn(vs, { ...DEFAULT_CLUSTER_OPTIONS, ...deps.cluster }));
  for (const cluster of clusters) {
    for (const ids of chunkCluster(cluster, deps.maxPerCall ?? 12)) {
      const group = ids.map((id) => byId.get(id)!);
      try {
        await consolidateGroup(deps, scope, group, maxChars, now, stats);
      } catch (err) {
        stats.failedClusters++;
        log.warn({ scope, ids, err }, 'memory cluster not consolidated; its entries stay as they are');
      }
    }
  }
  stats.after = (await store.memories.activeInScope(scope)).length;
  if (stats.after !== stats.before || stats.refined > 0) await deps.cache.noteWritten(scope);
  log.info({ scope, ...stats }, 'memories consolidated');
  return stats;
}

/** Each live entry's vector, computing (and storing) those missing or from another embedder; undefined when embeddings are down. */
async function vectorsOf(deps: ConsolidationDeps, entries: MemoryEntry[]): Promise<Vectored[] | undefined> {
  const out: Vectored[] = [];
  const missing: MemoryEntry[] = [];
  for (const e of entries) {
    const v = e.embedding?.model === deps.embedder.id ? fromMemoryEmbedding(e.embedding) : undefined;
    if (v) out.push({ id: e._id, vector: v });
    else missing.push(e);
  }
  if (missing.length === 0) return out;
  try {
    for (let i = 0; i < missing.length; i += 256) {
      const batch = missing.slice(i, i + 256);
      const embeddings = await embedTexts(
        deps.embedder,
        batch.map((e) => e.text),
      );
      for (const [j, e] of batch.entries()) {
        const emb = embeddings[j]!;
        await deps.store.memories.setEmbedding(e._id, emb);
        out.push({ id: e._id, vector: fromMemoryEmbedding(emb)! });
      }
    }
  } catch (err) {
    deps.log.warn({ err }, 'embeddings unavailable; consolidation only pruned this scope');
    return undefined;
  }
  const order = new Map(entries.map((e, i) => [e._id, i]));
  return out.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
}

function groupBy<T>(xs: readonly T[], key: (x: T) => string): T[][] {
  const out = new Map<string, T[]>();
  for (const x of xs) out.set(key(x), [...(out.get(key(x)) ?? []), x]);
  return [...out.values()];
}

async function consolidateGroup(
  deps: ConsolidationDeps,
  scope: OwnerScope,
  group: MemoryEntry[],
  maxChars: number,
  now: Date,
  stats: ScopeStats,
): Promise<void> {
  const { store, log } = deps;
  const r = await runJsonTask(deps.llm, {
    task: TASK,
    model: deps.model,
    instructions: CONSOLIDATE_MEMORIES_INSTRUCTIONS.replace('MAX_CHARS', String(maxChars)),
    input: renderConsolidationInput(group),
    schema: consolidationOutputSchema,
    timeoutMs: deps.timeoutMs,
  });
  const plan = planMerge(group, r.value, maxChars);
  if (plan.problems.length > 0) log.warn({ scope, problems: plan.problems }, 'consolidation output partly ignored');
  const byId = new Map(group.map((e) => [e._id, e]));
  let embeddings: MemoryEmbedding[] = [];
  try {
    embeddings =
      plan.refined.length > 0
        ? await embedTexts(
            deps.embedder,
            plan.refined.map((x) => x.text),
          )
        : [];
  } catch (err) {
    log.warn({ err }, 'refined memories stored without vectors');
  }
  // Where each source went: a contradiction naming a merged entry points at its refined entry.
  const movedTo = new Map<string, string>();
  for (const [i, x] of plan.refined.entries()) {
    const origin = x.sourceIds.map((id) => byId.get(id)!);
    const place = origin[0]!.origin;
    const shared = origin.every((e) => e.visibility === 'shared');
    const entry: MemoryEntry = {
      _id: newId('mem', now),
      ownerId: scope.ownerId,
      ...(scope.subjectId !== undefined ? { subjectId: scope.subjectId } : {}),
      kind: x.kind,
      text: x.text,
      dedupeKey: dedupeKeyOf(scope.ownerId, scope.subjectId, x.text, place),
      ...(embeddings[i] ? { embedding: embeddings[i] } : {}),
      importance: x.importance,
      sources: mergedSources(origin),
      ...(place ? { origin: place } : {}),
      ...(shared ? { visibility: 'shared' as const } : {}),
      occurredAt: new Date(Math.max(...origin.map((e) => e.occurredAt.getTime()))),
      status: 'active',
      recall: { count: origin.reduce((n, e) => n + e.recall.count, 0), ...lastRecall(origin) },
      createdAt: now,
      updatedAt: now,
    };
    const stored = await store.memories.insertOnce(entry);
    // The refined text may already exist: as one of the sources (the others fold into it) or elsewhere.
    const target = stored.entry;
    if (stored.inserted) stats.refined++;
    else {
      if (target.status !== 'active' && !x.sourceIds.includes(target._id))
        await store.memories.reactivate(target._id, now);
      // It stands for the others now: their sources and recall stats join it, and it is worth at
      // least what they were (else a low-value absorber could be pruned with their facts).
      const listed = new Set(target.sources.memoryIds ?? []);
      await store.memories.absorb(
        target._id,
        origin.filter((e) => !listed.has(e._id)),
        x.importance,
        now,
      );
    }
    for (const id of x.sourceIds) movedTo.set(id, target._id);
    stats.merged += await store.memories.retire(
      x.sourceIds.filter((id) => id !== target._id),
      'merged',
      now,
      { mergedInto: target._id },
    );
  }
  for (const c of plan.contradicted) {
    stats.superseded += await store.memories.retire([c.id], 'superseded', now, {
      supersededBy: movedTo.get(c.byId) ?? c.byId,
    });
  }
}

function lastRecall(entries: MemoryEntry[]): { lastAt?: Date } {
  const times = entries.flatMap((e) => (e.recall.lastAt ? [e.recall.lastAt.getTime()] : []));
  return times.length > 0 ? { lastAt: new Date(Math.max(...times)) } : {};
}

/** Every scope with active memories, one after the other. */
export async function consolidateAll(
  deps: ConsolidationDeps,
  only?: { ownerId?: string; subjectId?: string },
): Promise<ConsolidationStats> {
  const total: ConsolidationStats = {
    scopes: 0,
    before: 0,
    after: 0,
    refined: 0,
    merged: 0,
    pruned: 0,
    superseded: 0,
    failedClusters: 0,
  };
  const scopes = (await deps.store.memories.activeScopes()).filter(
    (s) =>
      (only?.ownerId === undefined || s.ownerId === only.ownerId) &&
      (only?.subjectId === undefined || s.subjectId === only.subjectId),
  );
  for (const scope of scopes) {
    try {
      const s = await consolidateOwner(deps, scope);
      total.scopes++;
      for (const k of ['before', 'after', 'refined', 'merged', 'pruned', 'superseded', 'failedClusters'] as const)
        total[k] += s[k];
    } catch (err) {
      deps.log.error({ scope, err }, 'memory consolidation of a scope failed');
    }
  }
  deps.log.info(total, 'nightly memory consolidation done');
  return total;
}
