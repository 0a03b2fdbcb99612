// Which indexes a server gets, from its answer to `explain` (src/store/collections.ts).
import { describe, expect, it } from 'vitest';
import { indexUseOf } from '../../src/store/collections.js';

describe('indexUseOf', () => {
  it('keeps only unique indexes where the server scans for a filter on a field (FerretDB, sqlite)', () => {
    const ferretSqlite = {
      queryPlanner: { Plan: ['id=2 parent=0 notused=0 detail=SCAN migrations_5e4b1d9c'] },
      filterPushdown: false,
      sortPushdown: false,
      ok: 1,
    };
    expect(indexUseOf(ferretSqlite)).toBe('unique');
  });

  it('keeps every index where the server pushes the filter down, or says nothing of it (MongoDB)', () => {
    expect(indexUseOf({ queryPlanner: {}, filterPushdown: true, ok: 1 })).toBe('all');
    const mongo = { queryPlanner: { winningPlan: { stage: 'EOF' } }, explainVersion: '1', ok: 1 };
    expect(indexUseOf(mongo)).toBe('all');
    expect(indexUseOf({})).toBe('all'); // the probe failed
  });
});
