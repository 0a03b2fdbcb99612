import { describe, expect, it } from 'vitest';
import { citationsIn, citedSources, sourceFootnotes, type NumberedSource } from '../../src/domain/citations.js';
import { citationStage, citationStageFactory } from '../../src/knowledge/citationStage.js';
import { composeStages, markerStage, type StreamStage } from '../../src/delivery/streamStage.js';
import { withCitedSources } from '../../src/respond/replySources.js';

const source = (n: number, documentName = `doc${n}.md`): NumberedSource => ({
  n,
  chunkId: `kch_${n}`,
  documentId: `doc_${n}`,
  documentName,
  content: `passage ${n}`,
  score: 1 / n,
});
const TWO = [source(1, 'handbook.pdf'), source(2, 'faq.md')];

/** Feeds the chunks through a stage and returns what was shown after each, and at the end. */
function run(stage: StreamStage, chunks: string[]): { shown: string[]; final: string; all: string } {
  const shown = chunks.map((c) => stage.push(c));
  const final = stage.end();
  return { shown, final, all: shown.join('') + final };
}
/** Every way of cutting `text` into two chunks gives the same result. */
function everySplit(text: string, sources: readonly NumberedSource[]): Set<string> {
  const results = new Set<string>();
  for (let i = 0; i <= text.length; i++)
    results.add(run(citationStage(sources), [text.slice(0, i), text.slice(i)]).all);
  return results;
}

describe('citationsIn', () => {
  it('finds [n] markers in order, adjacent ones too, in Chinese text as in English', () => {
    expect(citationsIn('Refunds take 30 days [1]. Holidays[2][3]. 年假十五天[12]。').map((c) => c.n)).toEqual([
      1, 2, 3, 12,
    ]);
  });

  it('ignores code, Markdown link texts, [0] and longer numbers', () => {
    const text = [
      'Use `arr[1]` here [2].',
      '```js',
      'const x = list[3];',
      '```',
      'See [4](https://example.com) and [0] and [1234] but [5]',
    ].join('\n');
    expect(citationsIn(text).map((c) => c.n)).toEqual([2, 5]);
  });

  it('an unpaired backtick hides code only to the end of its line', () => {
    expect(citationsIn('it`s odd [1]\nnext line [2]').map((c) => c.n)).toEqual([2]);
  });
});

describe('citedSources', () => {
  it('records exactly the valid citations, once each, by number', () => {
    const sources = citedSources('A [2]. B [9]. C [2][1].', TWO);
    expect(sources.map((s) => [s.n, s.documentName])).toEqual([
      [1, 'handbook.pdf'],
      [2, 'faq.md'],
    ]);
    expect(sources[0]).toEqual({
      n: 1,
      documentId: 'doc_1',
      documentName: 'handbook.pdf',
      chunkId: 'kch_1',
      content: 'passage 1',
      relevanceScore: 1,
    });
    expect(citedSources('Nothing cited [7].', TWO)).toEqual([]);
  });

  it('footnotes are short: number and document name', () => {
    expect(sourceFootnotes(citedSources('x [1] y [2]', TWO))).toBe('\n\n[1] handbook.pdf\n[2] faq.md');
    expect(sourceFootnotes([])).toBe('');
  });
});

describe('citationStage', () => {
  it('keeps a valid [1] and drops an invalid [7] with the space before it', () => {
    const r = run(citationStage(TWO), ['Refunds take 30 days [1]. Cats fly [7].']);
    expect(r.all).toBe('Refunds take 30 days [1]. Cats fly.');
  });

  it('holds a marker split across chunks until it is decided, streaming the text around it', () => {
    const r = run(citationStage(TWO), ['Refunds take 30 days [', '1', ']. Cats fly [', '7', '] indeed.']);
    expect(r.shown).toEqual(['Refunds take 30 days', '', ' [1]. Cats fly', '', ' indeed.']);
    expect(r.final).toBe('');
    expect(r.all).toBe('Refunds take 30 days [1]. Cats fly indeed.');
  });

  it('gives the same text however the model cuts it', () => {
    const text = 'A fact [1], a guess [9], code `x[7]` and [2][12] end [';
    expect(everySplit(text, TWO)).toEqual(new Set(['A fact [1], a guess, code `x[7]` and [2] end [']));
    const fenced = 'Run:\n```\ny = a[3]\n```\nDone [3].';
    expect(everySplit(fenced, TWO)).toEqual(new Set(['Run:\n```\ny = a[3]\n```\nDone.']));
  });

  it('what it shows has the same citations the reply records', () => {
    const said = 'One [1], two [2], three [3], link [1](http://x).';
    const shown = run(citationStage(TWO), [said]).all;
    expect(citationsIn(shown).map((c) => c.n)).toEqual(citedSources(said, TWO).map((s) => s.n));
  });

  it('lets everything through when nothing was retrieved', () => {
    const stage = citationStageFactory({ sources: [] });
    expect(run(stage, ['Footnote [1] and ', 'array[2] stay.']).all).toBe('Footnote [1] and array[2] stay.');
  });

  it('composes with the marker stage', () => {
    const stage = composeStages([markerStage({ names: ['PROGRESS'] }), citationStage(TWO)]);
    const r = run(stage, ['Go on [PROG', 'RESS:1:done] as said [', '2] and [8', '].']);
    expect(r.all).toBe('Go on as said [2] and.');
  });
});

describe('withCitedSources', () => {
  const outcome = (stored: string, state: 'complete' | 'interrupted' | 'error' = 'complete') => ({
    state,
    stored,
    shown: stored.replace(' [9]', ''),
  });

  it('records the valid sources and adds footnotes where the channel has no source events', () => {
    const r = withCitedSources(outcome('Refunds [1] and flying cats [9].'), { retrieved: TWO, footnotes: true });
    expect(r.sources?.map((s) => s.n)).toEqual([1]);
    expect(r.shown).toBe('Refunds [1] and flying cats.\n\n[1] handbook.pdf');
  });

  it('no footnotes for a channel that shows sources itself, nor for a failed reply', () => {
    const web = withCitedSources(outcome('Refunds [1].'), { retrieved: TWO, footnotes: false });
    expect(web.shown).toBe('Refunds [1].');
    expect(web.sources).toHaveLength(1);
    const failed = withCitedSources(outcome('Refunds [1]', 'error'), { retrieved: TWO, footnotes: true });
    expect(failed.shown).toBe('Refunds [1]');
  });

  it('leaves a reply that cited nothing valid untouched', () => {
    const o = outcome('No citation [9].');
    expect(withCitedSources(o, { retrieved: TWO, footnotes: true })).toBe(o);
    expect(withCitedSources(outcome('[1]'), { retrieved: [], footnotes: true }).sources).toBeUndefined();
  });
});
