import { describe, expect, it } from 'vitest';
import { splitForPlatform } from '../../src/delivery/split.js';

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
