// The fast tone detector (seed 003 Q2, "基于关键词的快速分析"): counts the lexicon's keywords
// per emotion in the given texts. Light on negation: a keyword right after a negation word in
// the same clause ("不担心", "not worried", "don't worry") does not count. Pure and cheap, so it
// runs on every turn without a model call.
import { TONE_EMOTIONS, type ToneEmotion } from '../domain/model.js';
import { NEGATIONS, TONE_LEXICON } from './lexicon.js';

export type ToneScores = Record<ToneEmotion, number>;

export const zeroScores = (): ToneScores => Object.fromEntries(TONE_EMOTIONS.map((e) => [e, 0])) as ToneScores;

interface Span {
  start: number;
  end: number;
}

const CLAUSE_BREAK = /[\s,.;:!?，。；：！？、…\n()（）"“”]/u;
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// Compiled once: one regex per English entry, whole words only.
const EN_PATTERNS: Record<ToneEmotion, RegExp[]> = Object.fromEntries(
  TONE_EMOTIONS.map((e) => [
    e,
    TONE_LEXICON[e].en.map((kw) => new RegExp(`(?<![\\p{L}\\p{N}'])${escape(kw)}(?![\\p{L}\\p{N}])`, 'giu')),
  ]),
) as Record<ToneEmotion, RegExp[]>;

function zhMatches(text: string, keywords: readonly string[]): Span[] {
  const spans: Span[] = [];
  for (const kw of keywords) {
    for (let i = text.indexOf(kw); i !== -1; i = text.indexOf(kw, i + kw.length))
      spans.push({ start: i, end: i + kw.length });
  }
  return spans;
}

function enMatches(text: string, patterns: RegExp[]): Span[] {
  const spans: Span[] = [];
  for (const re of patterns)
    for (const m of text.matchAll(re)) spans.push({ start: m.index, end: m.index + m[0].length });
  return spans;
}

/** Overlapping hits of one emotion count once, the longest winning ("害怕" is not also "怕怕"). */
function disjoint(spans: Span[]): Span[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start || b.end - a.end);
  const out: Span[] = [];
  for (const s of sorted) if (!out.length || s.start >= (out.at(-1) as Span).end) out.push(s);
  return out;
}

/** The clause before a hit: from the last punctuation mark up to the hit. */
function clauseBefore(text: string, start: number): string {
  let i = start;
  while (i > 0 && !CLAUSE_BREAK.test(text[i - 1] as string)) i -= 1;
  return text.slice(i, start);
}

function negated(text: string, span: Span): boolean {
  const isCjk = /\p{Script=Han}/u.test(text.slice(span.start, span.end));
  if (isCjk) {
    const window = clauseBefore(text, span.start).slice(-3);
    return NEGATIONS.zh.some((n) => window.includes(n));
  }
  // English: up to three words before the hit, within the same clause.
  const before = text.slice(0, span.start);
  const clause = before.split(/[,.;:!?，。；：！？\n]/u).at(-1) ?? '';
  const words = clause.toLowerCase().split(/\s+/u).filter(Boolean).slice(-3);
  return words.some((w) => (NEGATIONS.en as readonly string[]).includes(w) || w.endsWith("n't"));
}

/** Keyword counts per emotion over the texts (a turn's human messages, usually). */
export function detectTone(texts: readonly string[]): ToneScores {
  const scores = zeroScores();
  for (const raw of texts) {
    const text = raw.replace(/[’‘]/g, "'").toLowerCase();
    for (const emotion of TONE_EMOTIONS) {
      const lex = TONE_LEXICON[emotion];
      const hits = disjoint([...zhMatches(text, lex.zh), ...enMatches(text, EN_PATTERNS[emotion])]);
      scores[emotion] += hits.filter((h) => !negated(text, h)).length;
    }
  }
  return scores;
}
