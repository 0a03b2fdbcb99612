// The LoCoMo part's markdown: per memory form one table, rows by category then retriever,
// hit@k and coverage@k in percent; notes say what was measured.
import type { LocomoBenchResult } from './locomo.js';
import { LOCOMO_CATEGORIES, type LocomoCategory } from './locomoData.js';
import { LOCOMO_RETRIEVERS, TOP_K, type FormRun } from './locomoEval.js';
import { byCategory, LOCOMO_KS } from './locomoScore.js';
import { coverageByConversation, coverageInterval, pairedGain, RESAMPLES, type Interval } from './locomoSpread.js';
import { table } from './report.js';

const pct = (x: number | undefined): string => (x === undefined || Number.isNaN(x) ? '–' : x.toFixed(1));
const categoryName = (c: LocomoCategory | 'all'): string =>
  c === 'all' ? 'all (1–4)' : `${c} ${LOCOMO_CATEGORIES[c]}`;

export function locomoFormTable(run: FormRun): string {
  const perRetriever = LOCOMO_RETRIEVERS.map((r) => [r, byCategory(run.questions[r])] as const);
  const rows: string[][] = [];
  for (const c of ['all', 1, 2, 3, 4] as const) {
    for (const [r, scores] of perRetriever) {
      const s = scores.get(c)!;
      rows.push([categoryName(c), String(s.n), r, ...LOCOMO_KS.flatMap((k) => [pct(s.hit[k]), pct(s.coverage[k])])]);
    }
  }
  return table(['category', 'questions', 'retriever', ...LOCOMO_KS.flatMap((k) => [`hit@${k}`, `cov@${k}`])], rows);
}

const SPREAD_K = 5;
const signed = (x: number): string => (x >= 0 ? `+${x.toFixed(1)}` : x.toFixed(1));
const interval = (i: Interval, f: (x: number) => string): string => `${f(i.value)} (${f(i.low)} to ${f(i.high)})`;

/** How far the form's overall figures can be trusted: intervals, and the spread over conversations. */
export function locomoSpread(run: FormRun): string {
  const recall = run.questions.recall;
  const bm25 = run.questions['BM25 alone'];
  const perConversation = coverageByConversation(recall, SPREAD_K);
  const bm25By = new Map(coverageByConversation(bm25, SPREAD_K).map((c) => [c.conversation, c.coverage]));
  const conversations = perConversation
    .map((c) => `${c.conversation} ${pct(c.coverage)} / ${pct(bm25By.get(c.conversation))}`)
    .join(', ');
  return [
    `cov@${SPREAD_K}, all categories, 95 % intervals: recall ${interval(coverageInterval(recall, SPREAD_K), pct)};`,
    `recall − BM25 alone ${interval(pairedGain(recall, bm25, SPREAD_K), signed)}.`,
    `Per conversation, recall / BM25 alone: ${conversations}.`,
  ].join(' ');
}

export function locomoTables(r: LocomoBenchResult): string[] {
  return r.runs.flatMap((run) => [
    `LoCoMo dev, ${run.form === 'observations' ? "the dataset's observations" : 'raw dialog turns'} as memories (${run.memories} in ${r.conversations.length} owners)`,
    '',
    locomoFormTable(run),
    '',
    locomoSpread(run),
    '',
  ]);
}

export function locomoNotes(r: LocomoBenchResult): string[] {
  const speed = r.runs
    .map(
      (run) =>
        `${run.form}: ${LOCOMO_RETRIEVERS.map((x) => `${x} ${run.msPerQuestion[x].toFixed(2)}`).join(', ')} ms per question`,
    )
    .join('; ');
  const notes = [
    `Conversations ${r.conversations.join(', ')}, each one owner's memories (stored in ${r.insertS.toFixed(1)} s, vectors from ${r.embedderId} written with them); questions of categories 1–4 with readable evidence, asked a day after the last session; top ${TOP_K} per question; percent.`,
    'recall = MemoryRecall.recall, the reply path with the offline default (synthesised queries, the keyword retriever with word-vector expansion, feedback, time and context, a meaning rerank by word vectors, recency and importance; the offline vectors left out); no word vectors = the same without the English word vectors (as before them); offline vectors fused = the same path fusing them by rank as it fuses an embeddings API’s vectors; keyword-only = the embeddings API down; BM25 alone / vectors alone = the index’s keyword or vector search with the question as it is.',
    "hit@k: at least one evidence dia_id among the top k memories' dia_ids; cov@k: the share of the question's evidence dia_ids among them (LoCoMo's definitions). Observations do not cite every evidence turn, so their coverage cannot reach 100.",
    `Intervals: percentile bootstrap over the questions (${RESAMPLES} seeded resamples); the gain over BM25 alone is paired (each resample asks both the same questions). They say how far another draw of questions like these may move a figure; the per-conversation spread says where one unseen conversation may fall.`,
    `Time: ${speed}.`,
  ];
  if (r.unreadableEvidence.length > 0)
    notes.push(
      `Note: ${r.unreadableEvidence.length} evidence id(s) unreadable in the dataset and left out: ${r.unreadableEvidence.join(', ')}.`,
    );
  return notes;
}
