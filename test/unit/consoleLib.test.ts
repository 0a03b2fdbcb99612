// The console's pure helpers: the prompt line diff and the mapping of CONFIG_INVALID problems
// to the fields they name.
import { describe, expect, it } from 'vitest';
import { diffLines, foldUnchanged } from '../../console/src/lib/diff.js';
import { fieldErrors } from '../../console/src/lib/configErrors.js';

describe('diffLines', () => {
  it('keeps shared lines and marks what was removed and added, in order', () => {
    expect(diffLines(['a', 'b', 'c', 'd'], ['a', 'x', 'c', 'd', 'e'])).toEqual([
      { op: 'same', text: 'a' },
      { op: 'del', text: 'b' },
      { op: 'add', text: 'x' },
      { op: 'same', text: 'c' },
      { op: 'same', text: 'd' },
      { op: 'add', text: 'e' },
    ]);
  });

  it('handles empty sides and identical inputs', () => {
    expect(diffLines([], ['a'])).toEqual([{ op: 'add', text: 'a' }]);
    expect(diffLines(['a'], [])).toEqual([{ op: 'del', text: 'a' }]);
    expect(diffLines(['a', 'b'], ['a', 'b']).every((l) => l.op === 'same')).toBe(true);
  });

  it('folds long unchanged runs, keeping context around changes', () => {
    const a = Array.from({ length: 20 }, (_, i) => `line ${i}`);
    const b = [...a];
    b[10] = 'changed';
    // 21 lines: 10 same, the removed and the added line, 9 same.
    const hunks = foldUnchanged(diffLines(a, b), 2);
    expect(hunks.map((h) => (h.kind === 'gap' ? h.count : h.lines.length))).toEqual([8, 6, 7]);
  });
});

describe('fieldErrors', () => {
  const paths = ['thresholds.recall_top_k', 'thresholds.recent_turns', 'thresholds.summary_threshold_turns'];

  it('puts each problem beside the first field it names', () => {
    const r = fieldErrors(
      'thresholds.recall_top_k must be an integer between 1 and 20 (got 50); thresholds.recent_turns (20) must be below thresholds.summary_threshold_turns (15)',
      paths,
    );
    expect(r.byPath).toEqual({
      'thresholds.recall_top_k': 'thresholds.recall_top_k must be an integer between 1 and 20 (got 50)',
      'thresholds.recent_turns': 'thresholds.recent_turns (20) must be below thresholds.summary_threshold_turns (15)',
    });
    expect(r.other).toEqual([]);
  });

  it('keeps problems that name no field apart', () => {
    expect(fieldErrors('unknown section limitz (sections: thresholds, limits, preferences)', paths).other).toHaveLength(
      1,
    );
  });
});
