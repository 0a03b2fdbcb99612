// Splits a reply into platform-sized chunks (Telegram 4096, Discord 2000 UTF-16 units — what the
// platforms count) on the best boundary in each window: paragraph, then line, then sentence
// (English and Chinese punctuation), then word, then a hard cut that never halves a surrogate
// pair. Fenced code blocks are kept whole whenever they fit in a chunk; one longer than a chunk
// is cut at a line inside it, closed at the end of the chunk and reopened (with its language) at
// the start of the next, so every chunk renders on its own with balanced fences.
//
// Pure and greedy: each cut depends only on the text up to the end of its window, so while a
// streamed text grows, chunks already settled stay identical (edits touch only the last ones).
const SENTENCE_ENDS = ['. ', '! ', '? ', '。', '！', '？', '；'];

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
/** Moves a cut that would fall between the halves of a surrogate pair one unit left. */
const offSurrogate = (text: string, a: number) => (isHighSurrogate(text.charCodeAt(a - 1)) ? a - 1 : a);

/** A fenced code block (``` or ~~~), by absolute offsets in the text. */
interface Fence {
  /** First fence character of the opening line (after its indentation). */
  open: number;
  /** Start of the first content line (text length while the opening line is unfinished). */
  contentStart: number;
  /** Start of the closing line (text length when the block is still open). */
  closeStart: number;
  /** Just after the closing marker (text length when open). */
  end: number;
  marker: string;
  /** Language word reused when the block is reopened in the next chunk. */
  lang: string;
  closed: boolean;
}

// Markers longer than 16 are not treated as fences, so a reopening line stays short.
const FENCE_LINE = /^([ \t]*)(`{3,16}(?!`)|~{3,16}(?!~))(.*)$/;

function findFences(text: string): Fence[] {
  const fences: Fence[] = [];
  let current: Fence | undefined;
  let lineStart = 0;
  while (lineStart <= text.length) {
    const nl = text.indexOf('\n', lineStart);
    const lineEnd = nl === -1 ? text.length : nl;
    const m = FENCE_LINE.exec(text.slice(lineStart, lineEnd));
    if (m) {
      const [, indent = '', marker = '', info = ''] = m;
      if (!current) {
        // CommonMark: a backtick fence's info string cannot contain backticks (```x``` is inline code).
        if (!(marker.startsWith('`') && info.includes('`'))) {
          current = {
            open: lineStart + indent.length,
            contentStart: nl === -1 ? text.length : nl + 1,
            closeStart: text.length,
            end: text.length,
            marker,
            lang: (info.trim().split(/\s+/)[0] ?? '').slice(0, 32),
            closed: false,
          };
        }
      } else if (marker[0] === current.marker[0] && marker.length >= current.marker.length && info.trim() === '') {
        current.closeStart = lineStart;
        current.end = lineEnd;
        current.closed = true;
        fences.push(current);
        current = undefined;
      }
    }
    if (nl === -1) break;
    lineStart = nl + 1;
  }
  if (current) fences.push(current);
  return fences;
}

type Region = { kind: 'out' } | { kind: 'in' | 'bad'; fence: Fence };

/** What a cut just before offset `a` would fall into. */
function regionAt(fences: Fence[], a: number): Region {
  for (const f of fences) {
    if (a <= f.open) return { kind: 'out' };
    if (f.closed ? a < f.end : true) {
      // Inside the opening or closing line, or leaving an empty block behind: not a place to cut.
      if (a <= f.contentStart || a >= f.closeStart) return { kind: 'bad', fence: f };
      return { kind: 'in', fence: f };
    }
  }
  return { kind: 'out' };
}

const reopenLine = (f: Fence) => `${f.marker}${f.lang}\n`;
const closeLine = (f: Fence) => `\n${f.marker}`;

interface Cut {
  at: number;
  /** Set when the cut is inside this block: the chunk closes it and the next one reopens it. */
  inside?: Fence;
}

/** The last offset `a` in [from, to] right after one of `patterns` for which `accept` holds. */
function lastAfter(
  text: string,
  patterns: string[],
  from: number,
  to: number,
  accept: (a: number) => boolean,
): number | undefined {
  let best: number | undefined;
  for (const p of patterns) {
    if (to - p.length < from) continue;
    for (let i = text.lastIndexOf(p, to - p.length); i >= from; i = text.lastIndexOf(p, i - 1)) {
      const a = i + p.length;
      if (best !== undefined && a <= best) break;
      if (accept(a)) {
        best = a;
        break;
      }
      if (i === 0) break;
    }
  }
  return best;
}

function chooseCut(text: string, fences: Fence[], pos: number, room: number): Cut | undefined {
  const end = pos + room;
  const half = pos + Math.floor(room / 2);
  const firstText = text.slice(pos).search(/\S/);
  const hasText = (a: number) => firstText !== -1 && a > pos + firstText;
  const outside = (a: number) => hasText(a) && regionAt(fences, a).kind === 'out';
  const insideLine = (a: number) => {
    const r = regionAt(fences, a);
    return r.kind === 'in' && a <= end - r.fence.marker.length && hasText(a);
  };

  // Prose boundaries in the second half of the window (no tiny chunks), best kind first.
  for (const patterns of [['\n\n'], ['\n'], SENTENCE_ENDS]) {
    const at = lastAfter(text, patterns, half, end, outside);
    if (at !== undefined) return { at };
  }
  // A code block that starts in this window and runs past it: cut before it, so it starts the
  // next chunk whole (or, if longer than a chunk, splits with as few pieces as possible).
  const straddling = regionAt(fences, end);
  if (straddling.kind !== 'out') {
    const f = fences.find((x) => x.open < end && (x.closed ? x.end > end : true) && x.open > pos);
    if (f && hasText(f.open)) return { at: f.open };
  }
  // Inside a block too long for one chunk: at a line boundary, preferably in the second half.
  const lineInCode = lastAfter(text, ['\n'], half, end, insideLine);
  if (lineInCode !== undefined) return withFence(fences, lineInCode);
  const word = lastAfter(text, [' '], half, end, outside);
  if (word !== undefined) return { at: word };
  const anyLineInCode = lastAfter(text, ['\n'], pos, end, insideLine);
  if (anyLineInCode !== undefined) return withFence(fences, anyLineInCode);
  return hardCut(text, fences, pos, end, hasText);
}

function withFence(fences: Fence[], at: number): Cut {
  const r = regionAt(fences, at);
  return r.kind === 'in' ? { at, inside: r.fence } : { at };
}

/** No boundary anywhere: cut as late as possible, off surrogate pairs and fence lines. */
function hardCut(
  text: string,
  fences: Fence[],
  pos: number,
  end: number,
  hasText: (a: number) => boolean,
): Cut | undefined {
  const fix = (a: number) => offSurrogate(text, a);
  const at = fix(end);
  const r = regionAt(fences, at);
  if (r.kind === 'out') return hasText(at) ? { at } : undefined;
  const f = r.fence;
  if (at <= f.contentStart) return f.open > pos && hasText(f.open) ? { at: f.open } : undefined;
  // Inside the block (or its closing line): leave room for the closing line; a code line longer
  // than a chunk has to break somewhere.
  const inner = fix(Math.min(end - closeLine(f).length, f.closeStart - 1));
  return inner > f.contentStart && hasText(inner) ? { at: inner, inside: f } : undefined;
}

/** Below this limit fence lines would eat most of a chunk: split as plain text. */
const MIN_FENCE_AWARE_LIMIT = 100;

export function splitForPlatform(text: string, limit: number): string[] {
  const fences = limit >= MIN_FENCE_AWARE_LIMIT ? findFences(text) : [];
  const openAtEnd = fences.at(-1)?.closed === false ? fences.at(-1) : undefined;
  const chunks: string[] = [];
  let pos = 0;
  /** The block the previous chunk closed in its middle: this chunk reopens it. */
  let carry: Fence | undefined;
  for (;;) {
    const head = carry ? reopenLine(carry) : '';
    const tail = text.slice(pos).trimEnd();
    // A block still open at the end (streaming, or a model that forgot) is closed for display.
    const close = openAtEnd && tail.length > 0 ? closeLine(openAtEnd) : '';
    if (head.length + tail.length + close.length <= limit) {
      if (tail.length > 0 || chunks.length === 0) chunks.push(head + tail + close);
      return chunks;
    }
    const room = limit - head.length;
    // No cut found: only whitespace before the limit (trimmed away), or fence lines longer than
    // the room left (not a real limit): cut plainly.
    const cut = chooseCut(text, fences, pos, room) ?? { at: Math.max(pos + 1, offSurrogate(text, pos + room)) };
    if (cut.inside) {
      const body = text.slice(pos, text[cut.at - 1] === '\n' ? cut.at - 1 : cut.at);
      chunks.push(head + body + closeLine(cut.inside));
      pos = cut.at;
      carry = cut.inside;
    } else {
      const body = text.slice(pos, cut.at).trimEnd();
      if (body.length > 0) chunks.push(head + body);
      pos = cut.at;
      while (pos < text.length && /\s/.test(text[pos] ?? '')) pos++;
      carry = undefined;
    }
  }
}
