// How new memories relate to stored ones (pure rules). Exact duplicates are settled without the
// model; candidates with similar stored entries go to the model (`reconcile_memories`), whose
// operations are checked here: an operation naming an unknown candidate or an id that was not
// shown for that candidate is ignored. Whatever happens, a fact is never lost: a candidate
// without a usable answer (or with the model down) is added.
import type { MemoryEntry } from '../domain/model.js';
import { reconcileOpSchema, type ExtractableKind } from './extractionPrompt.js';

export interface Candidate {
  kind: ExtractableKind;
  text: string;
  importance: number;
  occurredAt: Date;
  dedupeKey: string;
}

export interface SimilarHit {
  entry: MemoryEntry;
  score: number;
}

export type CandidatePlan =
  /** Same text already stored and current (active, or folded into a merged entry). */
  | { action: 'duplicate'; existing: MemoryEntry }
  /** Same text as an earlier candidate of this batch. */
  | { action: 'batch_duplicate'; of: number }
  /** Nothing similar stored: added without asking. */
  | { action: 'add' }
  /** Nothing usable: empty after clamping. */
  | { action: 'skip' }
  /** Restates a superseded or pruned entry: it becomes current again; `similar` may contradict it. */
  | { action: 'reactivate'; existing: MemoryEntry; similar: SimilarHit[] }
  | { action: 'ask'; similar: SimilarHit[] };

export interface PlanOptions {
  /** Cosine score from which a stored entry counts as similar. */
  threshold: number;
  /** Similar entries shown to the model per candidate. */
  topK: number;
}

// Low on purpose: the offline embedder scores a contradiction ("lives in Berlin" / "moved to
// Paris") like unrelated facts (0.2–0.35); showing a few extra entries costs only tokens, while
// missing one leaves a contradiction active. topK bounds the call.
export const DEFAULT_RECONCILE_OPTIONS: PlanOptions = { threshold: 0.2, topK: 5 };

/**
 * `existingByKey`: stored entries (any status) with a candidate's dedupe key; `similar[i]`: the
 * active entries nearest to candidate i, best first.
 */
export function planCandidates(
  candidates: Candidate[],
  existingByKey: ReadonlyMap<string, MemoryEntry>,
  similar: SimilarHit[][],
  o: PlanOptions = DEFAULT_RECONCILE_OPTIONS,
): CandidatePlan[] {
  const seen = new Map<string, number>();
  return candidates.map((c, i): CandidatePlan => {
    if (c.text.length === 0) return { action: 'skip' };
    const earlier = seen.get(c.dedupeKey);
    if (earlier !== undefined) return { action: 'batch_duplicate', of: earlier };
    seen.set(c.dedupeKey, i);
    const existing = existingByKey.get(c.dedupeKey);
    if (existing && (existing.status === 'active' || existing.status === 'merged'))
      return { action: 'duplicate', existing };
    const near = (similar[i] ?? [])
      .filter((h) => h.score >= o.threshold && h.entry.status === 'active' && h.entry.dedupeKey !== c.dedupeKey)
      .sort((a, b) => b.score - a.score)
      .slice(0, o.topK);
    if (existing) return { action: 'reactivate', existing, similar: near };
    return near.length === 0 ? { action: 'add' } : { action: 'ask', similar: near };
  });
}

/** Candidates the model is asked about, in prompt order (the prompt numbers them 0..n-1). */
export function askedCandidates(plans: CandidatePlan[]): number[] {
  return plans.flatMap((p, i) =>
    (p.action === 'ask' || p.action === 'reactivate') && p.similar.length > 0 ? [i] : [],
  );
}

export type Decision =
  | { kind: 'noop'; reason: 'duplicate' | 'model' | 'empty'; targetId?: string }
  | { kind: 'add'; supersede: string[] }
  | { kind: 'update'; targetId: string; text: string }
  | { kind: 'reactivate'; id: string; supersede: string[] };

export interface Decisions {
  decisions: Decision[];
  /** Operations that were ignored, and candidates the model left out, for the log. */
  problems: string[];
}

/**
 * Turns plans and the model's operations into one decision per candidate. `ops` is the
 * `operations` array as the model sent it, or 'unavailable' when the call failed: then every
 * asked candidate is added (a restated old fact is reactivated) and nothing is superseded.
 */
export function decide(candidates: Candidate[], plans: CandidatePlan[], ops: unknown[] | 'unavailable'): Decisions {
  const asked = askedCandidates(plans);
  const problems: string[] = [];
  const byCandidate = new Map<number, Array<{ op: string; targetId?: string; text?: string }>>();
  if (ops !== 'unavailable') {
    ops.forEach((raw, n) => {
      const r = reconcileOpSchema.safeParse(raw);
      if (!r.success) return void problems.push(`operation ${n}: invalid (${r.error.issues[0]?.message ?? 'shape'})`);
      const index = asked[r.data.candidate];
      if (index === undefined) return void problems.push(`operation ${n}: unknown candidate ${r.data.candidate}`);
      const plan = plans[index]!;
      const shown = plan.action === 'ask' || plan.action === 'reactivate' ? plan.similar.map((h) => h.entry._id) : [];
      if (r.data.targetId !== undefined && !shown.includes(r.data.targetId))
        return void problems.push(
          `operation ${n}: unknown targetId ${r.data.targetId} for candidate ${r.data.candidate}`,
        );
      if ((r.data.op === 'update' || r.data.op === 'invalidate') && r.data.targetId === undefined)
        return void problems.push(`operation ${n}: ${r.data.op} without targetId`);
      const list = byCandidate.get(index) ?? [];
      list.push({
        op: r.data.op,
        ...(r.data.targetId ? { targetId: r.data.targetId } : {}),
        ...(r.data.text ? { text: r.data.text } : {}),
      });
      byCandidate.set(index, list);
    });
  }
  const decisions = plans.map((plan, i): Decision => {
    switch (plan.action) {
      case 'skip':
        return { kind: 'noop', reason: 'empty' };
      case 'duplicate':
        return { kind: 'noop', reason: 'duplicate', targetId: plan.existing._id };
      case 'batch_duplicate':
        return { kind: 'noop', reason: 'duplicate' };
      case 'add':
        return { kind: 'add', supersede: [] };
      case 'reactivate':
      case 'ask': {
        const list = byCandidate.get(i) ?? [];
        const supersede = [...new Set(list.filter((o) => o.op === 'invalidate').map((o) => o.targetId!))];
        if (plan.action === 'reactivate') return { kind: 'reactivate', id: plan.existing._id, supersede };
        if (ops !== 'unavailable' && list.length === 0)
          problems.push(`candidate ${asked.indexOf(i)}: no operation; added`);
        const update = list.find((o) => o.op === 'update');
        if (update) return { kind: 'update', targetId: update.targetId!, text: update.text ?? candidates[i]!.text };
        if (supersede.length > 0) return { kind: 'add', supersede };
        const noop = list.find((o) => o.op === 'noop');
        if (noop) return { kind: 'noop', reason: 'model', ...(noop.targetId ? { targetId: noop.targetId } : {}) };
        return { kind: 'add', supersede: [] };
      }
    }
  });
  return { decisions, problems };
}
