// A document's text → chunks (pure). Paragraphs stay whole where they fit; a Markdown heading
// starts a new chunk and names the chunks under it (its path, "Setup › Install"); fenced code
// blocks are never split at their blank lines. A paragraph longer than a chunk is cut at
// sentence ends (Chinese and Latin punctuation), and only a sentence longer than a chunk is cut
// hard. Consecutive chunks of one section share a short overlap (the previous chunk's last
// sentence or so), so a fact straddling a cut is whole in at least one chunk. Ids derive from
// the document id and the position: re-writing a document's chunks lands on the same documents.
import { derivedId } from '../domain/ids.js';

export interface ChunkOptions {
  /** Longest chunk in characters (UTF-16 units), overlap included. */
  maxChars: number;
  /** Characters of the previous chunk repeated at the start of the next (same section only). */
  overlapChars: number;
  /** Markdown: headings and code fences are structure. */
  markdown: boolean;
}

/** About 250–350 tokens of English (fewer characters per token in Chinese): several fit a prompt. */
export const DEFAULT_CHUNKING: Omit<ChunkOptions, 'markdown'> = { maxChars: 1_000, overlapChars: 150 };

export interface TextChunk {
  index: number;
  heading?: string;
  content: string;
}

export const chunkIdOf = (documentId: string, index: number): string => derivedId('kch', documentId, String(index));

const HEADING_PATH_MAX = 200;
const HEADING = /^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

interface Section {
  heading?: string;
  paragraphs: string[];
}

/** Paragraphs grouped by the heading path above them. */
function sections(text: string, markdown: boolean): Section[] {
  const out: Section[] = [{ paragraphs: [] }];
  const path: Array<{ level: number; text: string }> = [];
  let lines: string[] = [];
  let fence: string | undefined;
  const flush = () => {
    const p = lines.join('\n').trim();
    if (p) out.at(-1)!.paragraphs.push(p);
    lines = [];
  };
  for (const line of text.split('\n')) {
    if (markdown) {
      const f = FENCE.exec(line)?.[1];
      if (f && (fence === undefined || (f[0] === fence[0] && f.length >= fence.length))) {
        fence = fence === undefined ? f : undefined;
        lines.push(line);
        continue;
      }
      if (fence !== undefined) {
        lines.push(line);
        continue;
      }
      const h = HEADING.exec(line);
      if (h) {
        flush();
        const level = h[1]!.length;
        while (path.length > 0 && path.at(-1)!.level >= level) path.pop();
        if (h[2]) path.push({ level, text: h[2] });
        const heading = path
          .map((p) => p.text)
          .join(' › ')
          .slice(0, HEADING_PATH_MAX);
        out.push({ ...(heading ? { heading } : {}), paragraphs: [] });
        continue;
      }
    }
    if (line.trim() === '') flush();
    else lines.push(line);
  }
  flush();
  return out.filter((s) => s.paragraphs.length > 0);
}

const TERMINATOR = /[。！？；!?;.…]/u;
const CJK_TERMINATOR = /[。！？；…]/u;
const CLOSER = /["'”’)）』」]/u;

/** Cut points after sentence ends: each slice starts with the whitespace that followed its predecessor. */
function sentences(p: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (let i = 0; i < p.length; i++) {
    if (!TERMINATOR.test(p[i]!)) continue;
    let end = i + 1;
    while (end < p.length && (TERMINATOR.test(p[end]!) || CLOSER.test(p[end]!))) end++;
    const next = p[end];
    if (next === undefined || /\s/.test(next) || CJK_TERMINATOR.test(p[i]!)) {
      out.push(p.slice(start, end));
      start = end;
    }
    i = end - 1;
  }
  if (start < p.length) out.push(p.slice(start));
  return out;
}

/** A sentence longer than `max`: cut at the last whitespace before the limit, else at the limit (whole code points). */
function hardCut(s: string, max: number): string[] {
  const out: string[] = [];
  let rest = s;
  while (rest.length > max) {
    let cut = rest.lastIndexOf(' ', max);
    if (cut < max / 2) cut = max;
    // Never split a surrogate pair.
    if (/[\uD800-\uDBFF]/.test(rest[cut - 1] ?? '')) cut--;
    out.push(rest.slice(0, cut));
    rest = rest.slice(cut);
  }
  if (rest) out.push(rest);
  return out;
}

interface Unit {
  text: string;
  /** '\n\n' before a paragraph's first piece; '' before the rest (they carry their own spacing). */
  join: string;
}

/** A section's paragraphs as units no longer than `max`: whole paragraphs, else their sentences. */
function units(paragraphs: string[], max: number): Unit[] {
  const out: Unit[] = [];
  for (const p of paragraphs) {
    if (p.length <= max) {
      out.push({ text: p, join: '\n\n' });
      continue;
    }
    sentences(p)
      .flatMap((s) => (s.length > max ? hardCut(s, max) : [s]))
      .forEach((text, i) => out.push({ text, join: i === 0 ? '\n\n' : '' }));
  }
  return out;
}

/** The end of a chunk repeated at the start of the next: from a sentence start, else a word start. */
export function overlapTail(content: string, chars: number): string {
  if (chars <= 0 || content.length <= chars) return chars <= 0 ? '' : content;
  let tail = content.slice(content.length - chars);
  if (/[\uDC00-\uDFFF]/.test(tail[0] ?? '')) tail = tail.slice(1);
  const sentenceStart = /[。！？；!?.][”’"')）]*\s*(?=\S)/u.exec(tail);
  if (sentenceStart && sentenceStart.index + sentenceStart[0].length < tail.length - 1)
    return tail.slice(sentenceStart.index + sentenceStart[0].length).trim();
  const space = tail.search(/\s/);
  return (space >= 0 && space < tail.length - 1 ? tail.slice(space) : tail).trim();
}

export function chunkText(text: string, o: ChunkOptions): TextChunk[] {
  const overlapChars = Math.max(0, Math.min(o.overlapChars, Math.floor(o.maxChars / 3)));
  // Room for the overlap and its separator in every chunk.
  const unitMax = Math.max(1, o.maxChars - overlapChars - 2);
  const out: TextChunk[] = [];
  for (const section of sections(text, o.markdown)) {
    let content = '';
    let hasUnit = false; // `content` holds more than the overlap
    const emit = () => {
      const c = content.trim();
      if (c) out.push({ index: out.length, ...(section.heading ? { heading: section.heading } : {}), content: c });
    };
    for (const u of units(section.paragraphs, unitMax)) {
      if (hasUnit && content.length + u.join.length + u.text.length > o.maxChars) {
        emit();
        content = overlapTail(content.trim(), overlapChars);
        hasUnit = false;
      }
      // The overlap joins the next unit as the original text did; by construction it all fits.
      content = content ? content + u.join + u.text : u.text.trimStart();
      hasUnit = true;
    }
    emit();
  }
  return out;
}
