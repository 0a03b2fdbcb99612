import { describe, expect, it } from 'vitest';
import { chunkIdOf, chunkText, overlapTail, type ChunkOptions } from '../../src/knowledge/chunking.js';

const opts = (o: Partial<ChunkOptions> = {}): ChunkOptions => ({
  maxChars: 300,
  overlapChars: 60,
  markdown: false,
  ...o,
});
const sentence = (i: number) => `Sentence number ${i} says something about refunds and receipts.`;

describe('chunkText', () => {
  it('keeps short paragraphs whole and together in one chunk', () => {
    const chunks = chunkText('First paragraph.\n\nSecond paragraph.', opts());
    expect(chunks).toEqual([{ index: 0, content: 'First paragraph.\n\nSecond paragraph.' }]);
  });

  it('never makes a chunk longer than maxChars, overlap included', () => {
    const text = Array.from({ length: 12 }, (_, p) =>
      Array.from({ length: 4 + (p % 5) }, (_, i) => sentence(p * 10 + i)).join(' '),
    ).join('\n\n');
    const chunks = chunkText(text, opts());
    expect(chunks.length).toBeGreaterThan(5);
    for (const c of chunks) expect(c.content.length).toBeLessThanOrEqual(300);
    expect(chunks.map((c) => c.index)).toEqual(chunks.map((_, i) => i));
  });

  it('cuts a long paragraph at sentence ends and repeats the previous sentence as overlap', () => {
    const text = Array.from({ length: 12 }, (_, i) => sentence(i)).join(' ');
    // An overlap longer than one sentence: the next chunk repeats that sentence whole.
    const chunks = chunkText(text, opts({ overlapChars: 80 }));
    expect(chunks.length).toBeGreaterThan(1);
    // Every chunk starts at a sentence start; every sentence is whole in some chunk.
    for (const c of chunks) expect(c.content).toMatch(/^Sentence number \d+/);
    for (let i = 0; i < 12; i++) expect(chunks.some((c) => c.content.includes(sentence(i)))).toBe(true);
    // The second chunk begins with the end of the first (the overlap).
    const lastOfFirst = chunks[0]!.content.split('. ').at(-1)!;
    expect(chunks[1]!.content.startsWith(lastOfFirst.replace(/\.$/, ''))).toBe(true);
  });

  it('cuts Chinese at 。！？ and hard-cuts only a sentence longer than a chunk', () => {
    const zh = '员工每年享有十五天带薪年假。'.repeat(40);
    const chunks = chunkText(zh, opts({ maxChars: 100, overlapChars: 20 }));
    for (const c of chunks) {
      expect(c.content.length).toBeLessThanOrEqual(100);
      expect(c.content.endsWith('。')).toBe(true);
    }
    const long = 'x'.repeat(250);
    const hard = chunkText(long, opts({ maxChars: 100, overlapChars: 0 }));
    expect(hard.map((c) => c.content).join('')).toBe(long);
  });

  it('starts a new chunk at each Markdown heading and names it by the heading path', () => {
    const md = [
      '# Handbook',
      'Welcome.',
      '## Refunds',
      'Within 30 days.',
      '### Receipts',
      'Keep them.',
      '## Holidays',
      'Fifteen days.',
    ].join('\n');
    const chunks = chunkText(md, opts({ markdown: true }));
    expect(chunks.map((c) => [c.heading, c.content])).toEqual([
      ['Handbook', 'Welcome.'],
      ['Handbook › Refunds', 'Within 30 days.'],
      ['Handbook › Refunds › Receipts', 'Keep them.'],
      ['Handbook › Holidays', 'Fifteen days.'],
    ]);
    // In plain text a # line is just text.
    expect(chunkText(md, opts()).every((c) => c.heading === undefined)).toBe(true);
  });

  it('keeps a fenced code block whole across its blank lines and # lines', () => {
    const md = 'Intro.\n\n```sh\n# not a heading\n\nnpm install\n```\n\nAfter.';
    const chunks = chunkText(md, opts({ markdown: true }));
    expect(chunks).toHaveLength(1);
    expect(chunks[0]!.content).toContain('```sh\n# not a heading\n\nnpm install\n```');
    expect(chunks[0]!.heading).toBeUndefined();
  });

  it('is deterministic, and chunk ids derive from the document and position', () => {
    const text = Array.from({ length: 20 }, (_, i) => sentence(i)).join(' ');
    expect(chunkText(text, opts())).toEqual(chunkText(text, opts()));
    expect(chunkIdOf('doc_a', 0)).toBe(chunkIdOf('doc_a', 0));
    expect(chunkIdOf('doc_a', 0)).not.toBe(chunkIdOf('doc_a', 1));
    expect(chunkIdOf('doc_a', 0)).not.toBe(chunkIdOf('doc_b', 0));
    expect(chunkIdOf('doc_a', 3)).toMatch(/^kch_[0-9a-f]{24}$/);
  });

  it('makes nothing of whitespace', () => {
    expect(chunkText('  \n\n \n', opts())).toEqual([]);
  });
});

describe('overlapTail', () => {
  it('starts at a sentence start when one is within reach, else at a word', () => {
    expect(overlapTail('One two three. Four five six.', 18)).toBe('Four five six.');
    expect(overlapTail('alpha beta gamma delta epsilon', 12)).toBe('epsilon');
    expect(overlapTail('short', 50)).toBe('short');
    expect(overlapTail('anything', 0)).toBe('');
  });
});
