// The memory-write step both writers share — post-turn extraction and self-reflection: stored
// entries with the same dedupe key, the nearest active entries of the same place, the model asked
// about the candidates that need it (`reconcile_memories`), the decisions, then one embed call
// for the texts to store. Each writer asks the model its own way (its budget, its usage) and
// writes the decisions itself (writeMemories.ts).
import type { MemoryEmbedding, MemoryEntry } from '../domain/model.js';
import type { Logger } from '../log.js';
import type { Store } from '../store/store.js';
import type { OwnerScope } from '../store/memories.js';
import { renderReconcileInput } from './extractionPrompt.js';
import { embedTexts, findSimilar, type SimilarDeps } from './similar.js';
import {
  askedCandidates,
  decide,
  planCandidates,
  type Candidate,
  type CandidatePlan,
  type Decision,
  type PlanOptions,
  type SimilarHit,
} from './reconcile.js';
import { textsToEmbed } from './writeMemories.js';

export interface WriteStepDeps extends SimilarDeps {
  store: Pick<Store, 'memories'>;
  log: Logger;
}

/** Asks `reconcile_memories` with the rendered input; 'unavailable' when the writer's call failed. */
export type AskReconcile = (input: string) => Promise<unknown[] | 'unavailable'>;

export interface PlannedWrite {
  plans: CandidatePlan[];
  decisions: Decision[];
  /** Operations of the model's answer that were ignored, and why. */
  problems: string[];
  embeddings: ReadonlyMap<string, MemoryEmbedding>;
  /** How many candidates the model was asked about. */
  asked: number;
  /** The model's call failed: the candidates are added as they are. */
  modelUnavailable: boolean;
  /** Embeddings failed while looking for similar entries: nothing was compared. */
  similarUnavailable: boolean;
}

export async function planMemoryWrite(
  deps: WriteStepDeps,
  o: {
    scope: OwnerScope;
    candidates: Candidate[];
    /** Compare only with memories of this place (`homeOf`): a write never carries words across chats. */
    home: string | undefined;
    options: PlanOptions;
    maxChars: number;
    ask: AskReconcile;
    /** Who writes, for the logs. */
    writer: string;
  },
): Promise<PlannedWrite> {
  const { scope, candidates } = o;
  const [existing, similar] = await Promise.all([
    deps.store.memories.findByDedupeKeys(candidates.map((c) => c.dedupeKey)),
    similarEntries(deps, o),
  ]);
  const byKey = new Map(existing.filter((e) => e.ownerId === scope.ownerId).map((e) => [e.dedupeKey, e]));
  const plans = planCandidates(candidates, byKey, similar.hits, o.options);
  const asked = askedCandidates(plans);
  const ops = asked.length === 0 ? [] : await o.ask(reconcileInput(candidates, plans, asked));
  const { decisions, problems } = decide(candidates, plans, ops);
  const embeddings = await embedForWrite(deps, textsToEmbed(candidates, decisions, o.maxChars), o.writer);
  return {
    plans,
    decisions,
    problems,
    embeddings,
    asked: asked.length,
    modelUnavailable: ops === 'unavailable',
    similarUnavailable: similar.failed,
  };
}

/** Active entries nearest to each candidate; none when the embeddings are unavailable (all get added). */
async function similarEntries(
  deps: WriteStepDeps,
  o: { scope: OwnerScope; candidates: Candidate[]; options: PlanOptions; home: string | undefined; writer: string },
): Promise<{ hits: SimilarHit[][]; failed: boolean }> {
  try {
    const texts = o.candidates.map((c) => c.text);
    const found = await findSimilar(deps, o.scope, texts, o.options.topK, o.home);
    const ids = [...new Set(found.flatMap((list) => list.map((h) => h.entry.id)))];
    const full = new Map<string, MemoryEntry>((await deps.store.memories.getMany(ids)).map((e) => [e._id, e]));
    return {
      hits: found.map((list) =>
        list.flatMap((h) => (full.has(h.entry.id) ? [{ entry: full.get(h.entry.id)!, score: h.score }] : [])),
      ),
      failed: false,
    };
  } catch (err) {
    deps.log.warn({ err, writer: o.writer }, 'similar memories unavailable; new memories are added without comparison');
    return { hits: o.candidates.map(() => []), failed: true };
  }
}

/** The asked candidates with the stored entries each resembles, as the model reads them. */
function reconcileInput(candidates: Candidate[], plans: CandidatePlan[], asked: number[]): string {
  return renderReconcileInput(
    asked.map((i) => {
      const p = plans[i]!;
      const similar = p.action === 'ask' || p.action === 'reactivate' ? p.similar : [];
      return {
        candidate: candidates[i]!,
        similar: similar.map((h) => ({
          id: h.entry._id,
          kind: h.entry.kind,
          text: h.entry.text,
          occurredAt: h.entry.occurredAt,
          score: h.score,
        })),
      };
    }),
  );
}

async function embedForWrite(
  deps: WriteStepDeps,
  texts: string[],
  writer: string,
): Promise<Map<string, MemoryEmbedding>> {
  const unique = [...new Set(texts)];
  if (unique.length === 0) return new Map();
  try {
    const vectors = await embedTexts(deps.embedder, unique);
    return new Map(unique.map((t, i) => [t, vectors[i]!]));
  } catch (err) {
    // Stored without a vector: the index embeds entries that lack one when it loads them.
    deps.log.warn({ err, writer }, 'embedding new memories failed; stored without vectors');
    return new Map();
  }
}
