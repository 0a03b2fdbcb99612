import { describe, expect, it } from 'vitest';
import { splitForPlatform } from '../../src/delivery/split.js';
import { mulberry32 } from '../support/prng.js';

const codePoints = (s: string) => [...s].length;
const noSpace = (s: string) => s.replace(/\s+/g, '');

/** About 9 000 characters of paragraphs, lines, sentences, CJK and emoji. */
function mixedText(size = 9_000): string {
  const sentences = [
    'The quick brown fox jumps over the lazy dog.',
    'Is this the real life?',
    '这是一个中文句子。',
    'Wow! 😀 That is great.',
    '你好吗？我很好！',
    'Numbers 12345 and words_with_underscores, all in one line.',
    'A rather longer sentence that keeps going for a while so that the line is not too short at all.',
  ];
  const paragraphs: string[] = [];
  let total = 0;
  for (let i = 0; total < size; i++) {
    const lines: string[] = [];
    for (let l = 0; l < 1 + (i % 3); l++) {
      const count = 3 + ((i + l) % 5);
      lines.push(Array.from({ length: count }, (_, k) => sentences[(i + l + k) % sentences.length]).join(' '));
    }
    const paragraph = lines.join('\n');
    paragraphs.push(paragraph);
    total += codePoints(paragraph) + 2;
  }
  return [...paragraphs.join('\n\n')].slice(0, size).join('');
}

describe('splitForPlatform', () => {
  it('returns a short text as one chunk, unchanged', () => {
    expect(splitForPlatform('Hello there!\n\nHow are you?', 4096)).toEqual(['Hello there!\n\nHow are you?']);
  });

  it('keeps a text of exactly the limit in one chunk and splits one character more', () => {
    expect(splitForPlatform('x'.repeat(2000), 2000)).toEqual(['x'.repeat(2000)]);
    expect(splitForPlatform('x'.repeat(2001), 2000)).toEqual(['x'.repeat(2000), 'x']);
  });

  it('returns [""] for the empty string', () => {
    expect(splitForPlatform('', 4096)).toEqual(['']);
  });

  describe.each([4096, 2000])('a 9 000-character mixed text at limit %i', (limit) => {
    const text = mixedText();
    const chunks = splitForPlatform(text, limit);

    it('is really 9 000 characters and needs several chunks', () => {
      expect(codePoints(text)).toBe(9_000);
      expect(chunks.length).toBeGreaterThanOrEqual(Math.ceil(9_000 / limit));
    });

    it('gives chunks of at most the limit (in characters)', () => {
      for (const chunk of chunks) expect(codePoints(chunk)).toBeLessThanOrEqual(limit);
    });

    it('gives no empty chunk and no chunk that starts or ends with whitespace', () => {
      for (const chunk of chunks) {
        expect(chunk.length).toBeGreaterThan(0);
        expect(chunk).toBe(chunk.trim());
      }
    });

    it('loses nothing: all non-whitespace content is kept, in order', () => {
      expect(chunks.map(noSpace).join('')).toBe(noSpace(text));
    });

    it('does not make tiny chunks: every chunk but the last fills at least half the limit', () => {
      for (const chunk of chunks.slice(0, -1)) expect(codePoints(chunk)).toBeGreaterThanOrEqual(limit / 2);
    });
  });

  it('prefers paragraph boundaries over line, sentence and word boundaries', () => {
    const paragraph = (n: number) =>
      `Paragraph ${n} starts here. It has sentences.\nAnd a second line, with words. And more words here.`;
    const text = Array.from({ length: 40 }, (_, i) => paragraph(i)).join('\n\n');
    const chunks = splitForPlatform(text, 1000);
    expect(chunks.length).toBeGreaterThan(1);
    // Each chunk is whole paragraphs: joining them back with the paragraph break gives the text.
    expect(chunks.join('\n\n')).toBe(text);
    for (const chunk of chunks) {
      expect(codePoints(chunk)).toBeLessThanOrEqual(1000);
      expect(chunk).toMatch(/^Paragraph \d+ starts here\./);
      expect(chunk).toMatch(/And more words here\.$/);
    }
  });

  it('falls back to line boundaries when there is no paragraph break', () => {
    const text = Array.from({ length: 60 }, (_, i) => `line ${i} has a few words. And a sentence.`).join('\n');
    const chunks = splitForPlatform(text, 500);
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.join('\n')).toBe(text);
  });

  it('falls back to CJK sentence ends', () => {
    const text = '这是一个很长的中文句子没有空格但是有句号。'.repeat(30);
    const chunks = splitForPlatform(text, 100);
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks.slice(0, -1)) expect(chunk.endsWith('。')).toBe(true);
    expect(chunks.join('')).toBe(text);
  });

  it('hard-cuts a text with no spaces at exactly the limit', () => {
    const text = 'x'.repeat(10_000);
    const chunks = splitForPlatform(text, 4096);
    expect(chunks.map((c) => c.length)).toEqual([4096, 4096, 1808]);
    expect(chunks.join('')).toBe(text);
  });

  it('counts UTF-16 units (as the platforms do) and hard-cuts between emoji, never inside a surrogate pair', () => {
    const chunks = splitForPlatform('😀'.repeat(2_500), 2000);
    expect(chunks).toEqual(['😀'.repeat(1000), '😀'.repeat(1000), '😀'.repeat(500)]);
    // An odd limit would land inside a pair: the cut moves one unit left instead.
    const odd = splitForPlatform('😀'.repeat(10), 5);
    expect(odd.every((c) => c.length <= 5 && c === '😀'.repeat(c.length / 2))).toBe(true);
    expect(odd.join('')).toBe('😀'.repeat(10));
  });

  it('never yields an empty chunk when a window is all whitespace', () => {
    const chunks = splitForPlatform(`${' '.repeat(12)}hello world`, 10);
    expect(chunks.every((c) => c.trim().length > 0)).toBe(true);
    expect(chunks.join(' ')).toContain('hello');
  });

  it('ignores a boundary in the first half of the window and hard-cuts instead', () => {
    expect(splitForPlatform('ab cdefghijklmnop', 10)).toEqual(['ab cdefghi', 'jklmnop']);
  });

  it('cuts at the last word boundary in the second half of the window', () => {
    expect(splitForPlatform('aaaaaa bbbbbb cc', 10)).toEqual(['aaaaaa', 'bbbbbb cc']);
  });

  it('is stable while a streamed text grows: earlier chunks never change, only the last', () => {
    const full = mixedText();
    const fullChunks = splitForPlatform(full, 2000);
    for (const n of [2001, 3500, 4500, 6000, 7999, 8999]) {
      const prefixChunks = splitForPlatform([...full].slice(0, n).join(''), 2000);
      const settled = prefixChunks.slice(0, -1);
      expect(settled).toEqual(fullChunks.slice(0, settled.length));
    }
  });
});

// ---- code blocks -------------------------------------------------------------------------------

/** An independent reading of fenced blocks, as a Markdown renderer sees them, per chunk. */
function readFences(text: string): { balanced: boolean; codeLines: string[]; blocks: string[] } {
  const codeLines: string[] = [];
  const blocks: string[] = [];
  let open: { marker: string; lines: string[] } | undefined;
  for (const line of text.split('\n')) {
    const m = /^\s*(`{3,}|~{3,})(.*)$/.exec(line);
    if (!open) {
      if (m) open = { marker: m[1]!, lines: [line] };
    } else if (m && m[1]![0] === open.marker[0] && m[1]!.length >= open.marker.length && m[2]!.trim() === '') {
      blocks.push([...open.lines, line].join('\n'));
      open = undefined;
    } else {
      open.lines.push(line);
      codeLines.push(line);
    }
  }
  return { balanced: open === undefined, codeLines, blocks };
}
const isFenceLine = (line: string) => /^\s*(`{3,}|~{3,})/.test(line);
const withoutFenceLines = (s: string) =>
  s
    .split('\n')
    .filter((l) => !isFenceLine(l))
    .join('\n');

const rng = mulberry32;

function codeBlock(lang: string, size: number, seed: number, indent = ''): string {
  const r = rng(seed);
  const lines: string[] = [];
  let total = 0;
  for (let i = 0; total < size; i++) {
    const depth = Math.floor(r() * 4);
    const line = `${'    '.repeat(depth)}value_${i} = compute(${Math.floor(r() * 1e6)}, "s${i}")  # step ${i} 中文 😀`;
    lines.push(line);
    total += line.length + 1;
  }
  return [`${indent}\`\`\`${lang}`, ...lines.map((l) => `${indent}${l}`), `${indent}\`\`\``].join('\n');
}

/** A ~9 000-character reply: prose around four code blocks, one bigger than 4096. */
function replyWithCode(): string {
  const prose = (n: number) => mixedText(n);
  return [
    prose(600),
    'Here is the first example:',
    codeBlock('ts', 1200, 1),
    prose(500),
    'And the long one:',
    codeBlock('python', 4400, 2),
    '1. A list item with an indented block:',
    codeBlock('bash', 250, 3, '   '),
    prose(700),
    codeBlock('', 300, 4),
    prose(1200),
  ].join('\n\n');
}

describe.each([2000, 4096])('a 9 000-character reply with code blocks at limit %i', (limit) => {
  const text = replyWithCode();
  const chunks = splitForPlatform(text, limit);
  const original = readFences(text);

  it('is about 9 000 characters, with a block longer than the limit', () => {
    expect(text.length).toBeGreaterThan(8_500);
    expect(text.length).toBeLessThan(10_500);
    expect(original.blocks.some((b) => b.length > limit)).toBe(true);
  });

  it('gives chunks of at most the limit in UTF-16 units', () => {
    for (const chunk of chunks) expect(chunk.length).toBeLessThanOrEqual(limit);
  });

  it('gives every chunk balanced fences, so each renders on its own', () => {
    for (const chunk of chunks) expect(readFences(chunk).balanced, chunk.slice(-200)).toBe(true);
  });

  it('keeps every code line exactly (indentation included), as code, in order', () => {
    expect(chunks.flatMap((c) => readFences(c).codeLines)).toEqual(original.codeLines);
  });

  it('keeps all text in order: only fence lines and whitespace at the cuts are added or dropped', () => {
    expect(noSpace(withoutFenceLines(chunks.join('\n')))).toBe(noSpace(withoutFenceLines(text)));
  });

  it('keeps each block that fits in a chunk whole in one chunk', () => {
    for (const block of original.blocks.filter((b) => b.length <= limit - 10)) {
      expect(chunks.some((c) => c.includes(block.trimStart()))).toBe(true);
    }
  });

  it('reopens a block cut in its middle with its language', () => {
    const long = original.blocks.find((b) => b.length > limit)!;
    expect(long.startsWith('```python')).toBe(true);
    const pieces = chunks.filter((c) => c.includes('value_') && readFences(c).codeLines.some((l) => long.includes(l)));
    expect(pieces.length).toBeGreaterThan(1);
    for (const piece of pieces.slice(1)) expect(piece.startsWith('```python\n')).toBe(true);
    for (const piece of pieces.slice(0, -1)) expect(piece.endsWith('\n```')).toBe(true);
  });

  it('stays stable while the reply streams in: only the last chunks change', () => {
    for (let n = 500; n < text.length; n += 211) {
      const prefixChunks = splitForPlatform(text.slice(0, n), limit);
      const settled = prefixChunks.slice(0, -1);
      expect(settled, `prefix of ${n}`).toEqual(chunks.slice(0, settled.length));
    }
  });
});

describe('code blocks, edge cases', () => {
  it('moves a block that fits into the next chunk instead of cutting it', () => {
    const block = codeBlock('js', 900, 7);
    const text = `${'Intro words. '.repeat(20).trim()}\n\n${block}\n\nOutro.`;
    const chunks = splitForPlatform(text, 1000);
    expect(chunks.some((c) => c.startsWith(block))).toBe(true);
    for (const c of chunks) expect(readFences(c).balanced).toBe(true);
  });

  it('closes a block that is still open at the end (a streamed text mid-block)', () => {
    const chunks = splitForPlatform('Look:\n```ts\nconst a = 1;\nconst b', 4096);
    expect(chunks).toEqual(['Look:\n```ts\nconst a = 1;\nconst b\n```']);
  });

  it('cuts a code line longer than a chunk, with balanced fences around both parts', () => {
    const long = `\`\`\`\n${'x'.repeat(500)}\n\`\`\``;
    const chunks = splitForPlatform(long, 200);
    for (const c of chunks) {
      expect(c.length).toBeLessThanOrEqual(200);
      expect(readFences(c).balanced).toBe(true);
    }
    expect(chunks.flatMap((c) => readFences(c).codeLines).join('')).toBe('x'.repeat(500));
  });

  it('does not treat inline triple backticks as a fence', () => {
    const text = `${'Use ```inline``` here. '.repeat(20)}`.trim();
    const chunks = splitForPlatform(text, 150);
    expect(noSpace(chunks.join(''))).toBe(noSpace(text));
    expect(chunks.every((c) => !c.includes('\n```'))).toBe(true);
  });

  it('holds its properties on random texts and limits', () => {
    for (let seed = 1; seed <= 60; seed++) {
      const r = rng(seed);
      const parts: string[] = [];
      while (parts.join('\n\n').length < 3000 + r() * 6000) {
        const pick = r();
        if (pick < 0.35)
          parts.push(codeBlock(['ts', 'py', ''][Math.floor(r() * 3)]!, 50 + r() * 2500, seed * 100 + parts.length));
        else parts.push(mixedText(50 + Math.floor(r() * 900)));
      }
      const text = parts.join(r() < 0.5 ? '\n\n' : '\n');
      const limit = 300 + Math.floor(r() * 3800);
      const chunks = splitForPlatform(text, limit);
      const ctx = `seed ${seed}, limit ${limit}`;
      for (const c of chunks) {
        expect(c.length, ctx).toBeLessThanOrEqual(limit);
        expect(c.trim().length, ctx).toBeGreaterThan(0);
        expect(readFences(c).balanced, ctx).toBe(true);
        // No surrogate pair is ever cut in half.
        expect(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/.test(c), ctx).toBe(false);
      }
      expect(
        chunks.flatMap((c) => readFences(c).codeLines),
        ctx,
      ).toEqual(readFences(text).codeLines);
      expect(noSpace(withoutFenceLines(chunks.join('\n'))), ctx).toBe(noSpace(withoutFenceLines(text)));
      // Streaming: every prefix agrees with the whole on all chunks but its last, and never
      // needs fewer messages than a shorter prefix did.
      let count = 0;
      for (let n = 1; n <= text.length; n += 1 + Math.floor(r() * 300)) {
        const prefix = splitForPlatform(text.slice(0, n), limit);
        expect(prefix.slice(0, -1), `${ctx}, prefix ${n}`).toEqual(chunks.slice(0, prefix.length - 1));
        expect(prefix.length, `${ctx}, prefix ${n}`).toBeGreaterThanOrEqual(count);
        count = prefix.length;
      }
    }
  });
});
