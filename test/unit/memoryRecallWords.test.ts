import { describe, expect, it } from 'vitest';
import { compoundParts } from '../../src/memory/compoundWords.js';
import { rankByKeywords } from '../../src/memory/keywordRanking.js';
import { MemoryIndex } from '../../src/memory/memoryIndex.js';
import { extractKeywords } from '../../src/memory/recallQueries.js';
import { correctSpelling, correctText, editDistance } from '../../src/memory/spelling.js';
import { alignment, ALIGNMENT_FLOOR, contentWords } from '../../src/memory/wordAlignment.js';
import { WordVectors } from '../../src/memory/wordVectors.js';

// Most frequent first, on 3 axes: injury, pets, school.
const VOCAB: Array<[string, number[]]> = [
  ['user', [0.3, 0.3, 0.3]],
  ['hurt', [1, 0, 0.05]],
  ['injury', [0.95, 0.05, 0.05]],
  ['pet', [0, 1, 0]],
  ['dog', [0.05, 0.95, 0]],
  ['education', [0, 0, 1]],
  ['pursue', [0.1, 0, 0.9]],
];
const words = new WordVectors(
  VOCAB.map(([w]) => w),
  Float32Array.from(VOCAB.flatMap(([, v]) => v)),
  3,
);

function indexOf(texts: string[]): MemoryIndex {
  const index = new MemoryIndex(8);
  texts.forEach((text, i) => {
    const at = new Date(Date.UTC(2023, 4, 1 + i));
    index.upsert({ id: `m${i}`, kind: 'fact', text, importance: 0.5, occurredAt: at, updatedAt: at });
  });
  return index;
}

describe('WordVectors.similarity', () => {
  it('is the cosine of two known words, 1 for the word itself, undefined for an unknown one', () => {
    expect(words.similarity('hurt', 'hurt')).toBe(1);
    expect(words.similarity('hurt', 'injury')!).toBeGreaterThan(0.99);
    expect(words.similarity('hurt', 'pet')!).toBeLessThan(0.1);
    expect(words.similarity('hurt', 'nope')).toBeUndefined();
    expect(words.wordAt(1)).toBe('hurt');
    expect(words.wordAt(99)).toBeUndefined();
  });
});

describe('word alignment', () => {
  it('matches each question word to the nearest memory word, rare words weighing most', () => {
    const asked = contentWords(words, 'When did the user get hurt?');
    expect(asked.map((w) => w.word)).toEqual(['user', 'hurt']);
    const injury = alignment(words, asked, contentWords(words, 'User had an injury'));
    const pets = alignment(words, asked, contentWords(words, 'User walked the dog'));
    expect(injury).toBeGreaterThan(0.9);
    expect(pets).toBeLessThan(injury);
    // "user" (frequent) matched alone counts less than half.
    expect(pets).toBeLessThan(0.5);
  });

  it('counts nothing below the floor and nothing without English words', () => {
    const asked = contentWords(words, 'hurt');
    expect(alignment(words, asked, contentWords(words, 'dog'))).toBe(0);
    expect(ALIGNMENT_FLOOR).toBeGreaterThan(0);
    expect(alignment(words, contentWords(words, '我受伤了'), contentWords(words, 'User had an injury'))).toBe(0);
  });
});

describe('compound words', () => {
  it('splits an unknown word into two known stems as written', () => {
    const index = indexOf(['User went on a road trip', 'User ate ice cream', 'User is a mentor']);
    const idf = (s: string) => index.idf(s);
    expect(compoundParts(['roadtrip', 'icecream'], idf)).toEqual(['road', 'trip', 'ice', 'cream']);
    // Known words, digits and short words stay whole; "mentorship" is not mentor + "ship" unknown.
    expect(compoundParts(['road', '20232024', 'mentorship', 'ab'], idf)).toEqual([]);
  });

  it('lets a query written as one word find the memory that writes it as two', () => {
    const index = indexOf(['User went on a road trip with family', 'User likes the road to school']);
    const hits = rankByKeywords(index, ['roadtrip'], { filter: {}, asksWhen: false });
    expect(hits[0]!.entry.id).toBe('m0');
  });
});

describe('spelling', () => {
  it('measures edits, a swap of neighbours being one', () => {
    expect(editDistance('persue', 'pursue', 2)).toBe(1);
    expect(editDistance('recieve', 'receive', 2)).toBe(1);
    expect(editDistance('educaton', 'education', 2)).toBe(1);
    expect(editDistance('pet', 'education', 2)).toBe(3);
  });

  it('corrects a word neither the memories nor the vectors know to a near one the memories use', () => {
    const known = (w: string) => ['education', 'pursue', 'hurt'].includes(w);
    expect(correctSpelling(words, 'educaton', known)).toBe('education');
    expect(correctSpelling(words, 'persue', known)).toBe('pursue');
    // A word the vectors know, a short word, or one with no near known word stays.
    expect(correctSpelling(words, 'injury', known)).toBeUndefined();
    expect(correctSpelling(words, 'hurd', known)).toBeUndefined();
    expect(correctSpelling(words, 'zzzzzz', known)).toBeUndefined();
    expect(correctText(words, 'Would Caroline persue her educaton? 她想读书', known)).toBe(
      'Would Caroline pursue her education? 她想读书',
    );
  });
});

describe('question frames', () => {
  it('leave "what kind of" and "which type of" out of the keywords, not "kind" elsewhere', () => {
    expect(extractKeywords('What kind of books does Nate enjoy?')).toEqual(['books', 'nate', 'enjoy']);
    expect(extractKeywords('Which types of pottery has she made?')).toEqual(['pottery', 'made']);
    expect(extractKeywords('She was kind to me on a long walk')).toEqual(['kind', 'long', 'walk']);
  });
});
