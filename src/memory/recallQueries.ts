// Query synthesis for active recall (pure; SPEC §5, seed 003 §四.1, seed 001 §2.5): every turn
// searches memory with 2–4 queries made from the user's message — the message itself, its
// keywords, and on history cues ("还记得", "last time") a history query that also carries the
// previous user message's keywords (the user often names the topic one message earlier).
import { cutOut, EN_STOPWORDS, segments, ZH_STOPWORDS } from './textFeatures.js';

export interface SynthesizedQueries {
  queries: string[];
  /**
   * What keyword search asks: the keywords (cue words like "remember" or 还记得 would match
   * memories that merely say them), then the history query; the message itself when it has no
   * keywords and no history query. The first one is the main query.
   */
  keywordQueries: string[];
  keywords: string[];
  /** The user refers to something said or done before. */
  historyCue: boolean;
  /** How/why/details questions: also search detailed plot memories. */
  deep: boolean;
}

const ZH_HISTORY_CUES = ['还记得', '记不记得', '记得吗', '记得', '之前', '上次', '那次', '当时', '以前'];
const EN_HISTORY_CUES = /\b(remember|last time|before|earlier|you said|we talked)\b/i;
const ZH_DEEP_CUES = ['怎么', '如何', '为什么', '详细', '细节', '过程'];
const EN_DEEP_CUES = /\b(how|why|details?|what happened|explain)\b/i;

// Cue words are not topics: "remember" or "之前" in a keyword query would match every memory
// that happens to contain them. Likewise the verbs that report speech ("what did she mention /
// describe / discuss") and the hedges of a guess ("would he likely…"): they frame the question,
// and a memory that says "mentions" or "likely" is no closer to its answer. LoCoMo dev
// (bench/locomo.ts): +0.1 coverage@5 on both memory forms, no category lower.
const EN_CUE_WORDS = new Set([
  'remember',
  'recall',
  'last',
  'time',
  'earlier',
  'said',
  'talked',
  'talk',
  'detail',
  'details',
  'explain',
  'happened',
  'ago',
  'mention',
  'mentions',
  'mentioned',
  'describe',
  'describes',
  'described',
  'discuss',
  'discusses',
  'discussed',
  'likely',
  'probably',
  'possibly',
]);
// Longest first, so 还记得 is removed before 记得 and 为什么 before 什么.
const ZH_REMOVE = [...new Set([...ZH_HISTORY_CUES, ...ZH_DEEP_CUES, ...ZH_STOPWORDS])].sort(
  (a, b) => b.length - a.length,
);

const MAX_QUERY_CHARS = 2000;
const MAX_KEYWORDS = 16;

// Question frames whose words are not the topic: "what kind of books" is about books, and "kind"
// would match "kind words". LoCoMo dev (bench/locomo.ts): +0.2 coverage@5 on observations, +0.3
// on dialog turns. ("how long / many / often" likewise gave nothing on observations, -0.2 on turns.)
const EN_QUESTION_FRAMES = [/\b(what|which)\s+(?:kinds?|types?|sorts?)\s+of\b/gi];

/** The text without its question frames (their first word, a stopword, stays). */
function withoutQuestionFrames(text: string): string {
  return EN_QUESTION_FRAMES.reduce((t, re) => t.replace(re, (_m, first: string) => first), text);
}

export function extractKeywords(text: string): string[] {
  const out: string[] = [];
  for (const s of segments(withoutQuestionFrames(text))) {
    if (s.kind === 'word') {
      if (!EN_STOPWORDS.has(s.text) && !EN_CUE_WORDS.has(s.text)) out.push(s.text);
      continue;
    }
    out.push(...cutOut(s.text, ZH_REMOVE));
  }
  return [...new Set(out)].slice(0, MAX_KEYWORDS);
}

export function hasHistoryCue(text: string): boolean {
  return ZH_HISTORY_CUES.some((c) => text.includes(c)) || EN_HISTORY_CUES.test(text);
}

export function isDeepQuestion(text: string): boolean {
  return ZH_DEEP_CUES.some((c) => text.includes(c)) || EN_DEEP_CUES.test(text);
}

export function synthesizeQueries(message: string, o: { recentUserTexts?: string[] } = {}): SynthesizedQueries {
  const text = message.trim().slice(0, MAX_QUERY_CHARS);
  const keywords = extractKeywords(text);
  const historyCue = hasHistoryCue(text);
  const deep = isDeepQuestion(text);
  const keywordQuery = keywords.join(' ');
  const history = historyCue ? historyQuery(text, keywords, o.recentUserTexts) : '';
  const queries = distinct([text, keywordQuery, history]).slice(0, 4);
  const keywordQueries = distinct([keywordQuery, history]);
  return {
    queries,
    keywordQueries: keywordQueries.length > 0 ? keywordQueries : queries.slice(0, 1),
    keywords,
    historyCue,
    deep,
  };
}

/** This message's keywords and those of the latest earlier user message that is not this one. */
function historyQuery(text: string, keywords: string[], recentUserTexts: string[] = []): string {
  const previous = [...recentUserTexts].reverse().find((t) => t.trim() !== '' && t.trim() !== text);
  const previousKeywords = previous ? extractKeywords(previous) : [];
  return [...new Set([...keywords, ...previousKeywords])].join(' ');
}

/** Non-empty, trimmed, without case-insensitive repeats, in order. */
function distinct(candidates: string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const q of candidates) {
    const key = q.toLowerCase().trim();
    if (key === '' || seen.has(key)) continue;
    seen.add(key);
    out.push(q.trim());
  }
  return out;
}
