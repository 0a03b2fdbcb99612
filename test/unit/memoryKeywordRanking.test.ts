import { describe, expect, it } from 'vitest';
import type { MemoryKind } from '../../src/domain/model.js';
import { rankByKeywords } from '../../src/memory/keywordRanking.js';
import { MemoryIndex, queryTerms } from '../../src/memory/memoryIndex.js';
import { FEEDBACK, feedbackTerms } from '../../src/memory/queryExpansion.js';
import { synthesizeQueries } from '../../src/memory/recallQueries.js';
import { keywordTokens } from '../../src/memory/textFeatures.js';

const MIN = 60_000;
const DAY = 86_400_000;
const start = Date.UTC(2023, 4, 1, 12);

/** An index of texts, each `gapMs` after the previous one unless a time is given. */
function indexOf(items: Array<string | { text: string; at: number; kind?: MemoryKind }>, gapMs = DAY): MemoryIndex {
  const index = new MemoryIndex(8);
  items.forEach((item, i) => {
    const { text, at, kind } = typeof item === 'string' ? { text: item, at: start + i * gapMs } : item;
    const when = new Date(at);
    index.upsert({ id: `m${i}`, kind: kind ?? 'fact', text, importance: 0.5, occurredAt: when, updatedAt: when });
  });
  return index;
}

const ids = (index: MemoryIndex, queries: string[], o: Partial<Parameters<typeof rankByKeywords>[2]> = {}) =>
  rankByKeywords(index, queries, { filter: {}, asksWhen: false, ...o }).map((h) => h.entry.id);

describe('keyword tokens', () => {
  it('stem with Porter2 and map irregular verbs to their base form', () => {
    expect(keywordTokens('researching adoption agencies')).toEqual(keywordTokens('research adopt agency'));
    expect(keywordTokens('She won the tournament')).toEqual(keywordTokens('win tournament'));
    expect(keywordTokens('I met Jean')).toEqual(keywordTokens('meet Jean'));
    // "went" is "go", a stopword; "during" is one too (Porter2 would make it "dure").
    expect(keywordTokens('we went camping during the summer')).toEqual(['camp', 'summer']);
  });
});

describe('keyword queries', () => {
  it('ask for the keywords, not the cue words; the history query follows; the message when nothing else', () => {
    expect(synthesizeQueries('Do you remember what I do for work?').keywordQueries).toEqual(['work']);
    expect(synthesizeQueries('你还记得我的猫叫什么名字吗？').keywordQueries).toEqual(['猫叫 名字']);
    const history = synthesizeQueries('Do you remember what we talked about last time?', {
      recentUserTexts: ['My sister Anna is getting married in June'],
    });
    expect(history.keywordQueries).toEqual(['sister anna getting married june']);
    expect(synthesizeQueries('hi').keywordQueries).toEqual(['hi']);
  });
});

describe('rankByKeywords', () => {
  it('scores relative to the best hit, best first', () => {
    const index = indexOf(['User has a cat named Mochi', 'User likes sushi', 'User lives in Berlin']);
    const hits = rankByKeywords(index, ['cat name'], { filter: {}, asksWhen: false });
    expect(hits[0]?.entry.text).toBe('User has a cat named Mochi');
    expect(hits[0]?.score).toBe(1);
  });

  it('the memory said right after a hit shares its score: the answer follows the question', () => {
    const index = indexOf(
      [
        'Caroline: How did the kids handle the accident?',
        'Melanie: They were scared, but we reassured them and they are tough.',
        'Melanie: We also went to the beach last summer.',
      ],
      MIN,
    );
    expect(ids(index, ['kids handle accident']).slice(0, 2)).toEqual(['m0', 'm1']);
    // A day later is another conversation: nothing is shared.
    const apart = indexOf(['Caroline: How did the kids handle the accident?', 'Melanie: They were scared.']);
    expect(ids(apart, ['kids handle accident'])).toEqual(['m0']);
  });

  it('a named period puts its memories first; a when-question prefers memories that say when', () => {
    const index = indexOf([
      { text: 'Joanna visited a waterfall trail', at: Date.UTC(2022, 2, 10) },
      { text: 'Joanna visited Whispering Falls trail again', at: Date.UTC(2022, 4, 12) },
    ]);
    expect(
      ids(index, ['joanna visit trail'], {
        window: { from: new Date(Date.UTC(2022, 4, 1)), to: new Date(Date.UTC(2022, 5, 1)) },
      })[0],
    ).toBe('m1');

    const dated = indexOf(['Melanie ran a charity race for mental health', 'Melanie ran a charity race last Saturday']);
    expect(ids(dated, ['melanie charity race'])[0]).toBe('m0');
    expect(ids(dated, ['melanie charity race'], { asksWhen: true })[0]).toBe('m1');
  });

  it('keeps to the filter, neighbours included', () => {
    const index = indexOf(
      [
        { text: 'User asked about the hiking trip', at: start, kind: 'fact' },
        { text: 'The trip story in detail', at: start + MIN, kind: 'plot' },
      ],
      MIN,
    );
    expect(ids(index, ['hiking trip'], { filter: { kinds: ['fact'] } })).toEqual(['m0']);
  });
});

describe('feedbackTerms', () => {
  it('adds the rare words of the best hits at a lower weight, never common ones', () => {
    const index = indexOf([
      'User went camping with family and roasted marshmallows',
      'User enjoys camping near the lake',
      ...Array.from({ length: 20 }, (_, i) => `User note ${i} about family`),
    ]);
    const terms = queryTerms('camping');
    const added = feedbackTerms(index, terms, index.keywordSearch('camping', 3));
    expect(added.has('camp')).toBe(false); // the query's own
    // The strongest added term weighs FEEDBACK.weight, the others in proportion, none more.
    expect(Math.max(...added.values())).toBeCloseTo(FEEDBACK.weight, 10);
    expect(added.get('marshmallow')).toBeGreaterThan(0);
    expect(added.get('marshmallow')).toBeLessThanOrEqual(FEEDBACK.weight);
    expect(added.has('user')).toBe(false); // in every memory: says nothing
    expect(added.has('famili')).toBe(false); // in most memories
    // Searched with the feedback, the other camping memory's words find the first one too.
    const { hits, terms: all } = index.feedbackKeywordSearch(terms, 5, {}, (h) => feedbackTerms(index, terms, h));
    expect(all.get('marshmallow')).toBe(added.get('marshmallow'));
    expect(
      hits
        .map((h) => h.entry.id)
        .slice(0, 2)
        .sort(),
    ).toEqual(['m0', 'm1']);
  });
});
