import { describe, expect, it } from 'vitest';
import { extractKeywords, synthesizeQueries } from '../../src/memory/recallQueries.js';

describe('synthesizeQueries', () => {
  it('Chinese history question: the message, its keywords, and a history query with the previous message', () => {
    const q = synthesizeQueries('你还记得我们之前的约定吗？', { recentUserTexts: ['我们约好了周末一起去爬山'] });
    expect(q.historyCue).toBe(true);
    expect(q.deep).toBe(false);
    expect(q.keywords).toEqual(['约定']);
    expect(q.queries[0]).toBe('你还记得我们之前的约定吗？');
    expect(q.queries[1]).toBe('约定');
    expect(q.queries[2]).toContain('约定');
    expect(q.queries[2]).toContain('爬山');
    expect(q.queries.length).toBeLessThanOrEqual(4);
  });

  it('English history cue without a topic borrows the previous message’s keywords', () => {
    const q = synthesizeQueries('Do you remember what we talked about last time?', {
      recentUserTexts: ['My sister Anna is getting married in June', 'Do you remember what we talked about last time?'],
    });
    expect(q.historyCue).toBe(true);
    expect(q.keywords).toEqual([]); // cue words and stopwords are not topics
    expect(q.queries).toHaveLength(2);
    expect(q.queries[1]).toMatch(/sister/);
    expect(q.queries[1]).toMatch(/married/);
  });

  it('how / why / details questions are deep (zh and en)', () => {
    expect(synthesizeQueries('为什么我总是失眠？详细说说').deep).toBe(true);
    expect(synthesizeQueries('How did the trip to Kyoto go?').deep).toBe(true);
    expect(synthesizeQueries('what happened at the party').deep).toBe(true);
    expect(synthesizeQueries('I had pizza today').deep).toBe(false);
    expect(synthesizeQueries('我今天吃了披萨').deep).toBe(false);
  });

  it('without cues: the message and its keywords, no history query', () => {
    const q = synthesizeQueries('I adopted a puppy named Biscuit!');
    expect(q.historyCue).toBe(false);
    expect(q.queries).toEqual(['I adopted a puppy named Biscuit!', 'adopted puppy named biscuit']);
  });

  it('a greeting gives one query and no keywords; blank gives none', () => {
    expect(synthesizeQueries('hi')).toMatchObject({ queries: ['hi'], keywords: [] });
    expect(synthesizeQueries('   ').queries).toEqual([]);
  });
});

describe('extractKeywords', () => {
  it('drops Chinese function words and cue words, keeps content pieces', () => {
    expect(extractKeywords('我养的猫叫什么名字')).toEqual(['养', '猫叫', '名字']);
    expect(extractKeywords('上次你说我应该多运动')).toEqual(['多运动']);
  });
  it('drops the verbs that report speech and the hedges of a guess: they frame the question', () => {
    expect(extractKeywords('What did Maria mention about her puppy?')).toEqual(['maria', 'puppy']);
    expect(extractKeywords('How does John describe the game season?')).toEqual(['john', 'game', 'season']);
    expect(extractKeywords('Would Tim likely enjoy the song?')).toEqual(['tim', 'enjoy', 'song']);
  });
  it('keeps digits and mixed scripts', () => {
    expect(extractKeywords('我2019年在Tokyo工作')).toEqual(['2019', '年', 'tokyo', '工作']);
  });
});
