// Citations in a reply (pure; seed 004 FR-005): the model marks a statement with [n], n being a
// passage the prompt numbered [1]..[k]. A marker is `[` 1–3 digits `]` outside code (inline code
// spans and fenced blocks, where `arr[1]` is code, not a citation) and not a Markdown link's text
// (`[1](…)`). A marker is valid when n is one of the passages retrieved for this reply; the
// stream stage (citationStage.ts) drops invalid ones from what people see, the reply records the
// valid ones (citedSources), and platforms without source events get footnotes.
import type { SourceReference } from './model.js';

/** A retrieved passage as numbered in the prompt (src/knowledge/retrieval.ts). */
export interface NumberedSource {
  /** 1-based, as the prompt shows it. */
  n: number;
  chunkId: string;
  documentId: string;
  documentName: string;
  heading?: string;
  content: string;
  /** 0..1 (retrieval.ts). */
  score: number;
}

export type Piece = { kind: 'text'; text: string } | { kind: 'citation'; n: number; raw: string };

/** Where a scan stands: inside a fenced block, inside an inline code span (its backtick run length). */
export interface ScanState {
  fence?: string;
  inline: number;
  /** Only spaces since the last line break (a fence opens only at a line start). */
  lineStart: boolean;
}

export const newScanState = (): ScanState => ({ inline: 0, lineStart: true });

const CITATION = /^\[(\d{1,3})\]([\s\S]?)/;
const MAYBE_CITATION = /^\[\d{0,3}\]?$/;

/**
 * Splits `text` into text and citation pieces from `st` onwards (updated as it goes). Unless
 * `final`, a tail that more text could still change — a `[12` or `[1]` at the very end (a link
 * may follow), a run of backticks — is returned as `rest`, unscanned, for the next call.
 */
export function scanCitations(text: string, st: ScanState, final: boolean): { pieces: Piece[]; rest: string } {
  const pieces: Piece[] = [];
  let plain = '';
  let i = 0;
  const flush = () => {
    if (plain) pieces.push({ kind: 'text', text: plain });
    plain = '';
  };
  while (i < text.length) {
    const c = text[i]!;
    if (c === '`' || c === '~') {
      let j = i;
      while (j < text.length && text[j] === c) j++;
      if (j === text.length && !final) break;
      codeRun(st, text.slice(i, j));
      plain += text.slice(i, j);
      i = j;
      continue;
    }
    if (c === '[' && st.fence === undefined && st.inline === 0) {
      const rest = text.slice(i);
      const m = CITATION.exec(rest);
      if (m && (m[2] !== '' || final)) {
        const n = Number(m[1]);
        if (m[2] !== '(' && n >= 1) {
          flush();
          const raw = `[${m[1]}]`;
          pieces.push({ kind: 'citation', n, raw });
          i += raw.length;
          st.lineStart = false;
          continue;
        }
      } else if (!final && MAYBE_CITATION.test(rest)) break;
    }
    if (c === '\n') {
      st.lineStart = true;
      // Inline code does not run on past a line (an unpaired backtick must not hide the rest).
      st.inline = 0;
    } else if (c !== ' ' && c !== '\t') st.lineStart = false;
    plain += c;
    i++;
  }
  flush();
  return { pieces, rest: text.slice(i) };
}

/** A run of backticks (or tildes) opens or closes code. */
function codeRun(st: ScanState, run: string): void {
  const fenceLike = run.length >= 3 && st.lineStart;
  if (st.fence !== undefined) {
    if (fenceLike && run[0] === st.fence[0] && run.length >= st.fence.length) st.fence = undefined;
  } else if (run[0] === '~') {
    if (fenceLike && st.inline === 0) st.fence = run;
  } else if (st.inline > 0) {
    if (run.length === st.inline) st.inline = 0;
  } else if (fenceLike) st.fence = run;
  else st.inline = run.length;
  st.lineStart = false;
}

/** Every citation in a whole text, in order. */
export function citationsIn(text: string): Array<{ n: number; raw: string }> {
  return scanCitations(text, newScanState(), true).pieces.flatMap((p) =>
    p.kind === 'citation' ? [{ n: p.n, raw: p.raw }] : [],
  );
}

export const isValidCitation = (n: number, sources: readonly Pick<NumberedSource, 'n'>[]): boolean =>
  sources.some((s) => s.n === n);

/** The sources a reply validly cites, once each, by number: what the reply records. */
export function citedSources(text: string, sources: readonly NumberedSource[]): SourceReference[] {
  const cited = new Set(citationsIn(text).map((c) => c.n));
  return sources
    .filter((s) => cited.has(s.n))
    .sort((a, b) => a.n - b.n)
    .map((s) => ({
      n: s.n,
      documentId: s.documentId,
      documentName: s.documentName,
      chunkId: s.chunkId,
      content: s.content,
      relevanceScore: s.score,
    }));
}

/** Short footnotes for platforms that show sources as text: "\n\n[1] handbook.pdf\n[3] faq.md". */
export function sourceFootnotes(sources: readonly Pick<SourceReference, 'n' | 'documentName'>[]): string {
  if (sources.length === 0) return '';
  return `\n\n${sources.map((s) => `[${s.n}] ${s.documentName}`).join('\n')}`;
}
