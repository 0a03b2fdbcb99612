// Spend written behind (src/budget/spendBuffer.ts): one write per counter per flush, what is not
// written yet still counted by checks, and a failed write kept for the next flush, never lost.
import { describe, expect, it } from 'vitest';
import pino from 'pino';
import { SpendBuffer } from '../../src/budget/spendBuffer.js';
import type { SpendRow } from '../../src/store/spend.js';

const person = { scope: 'person', subjectId: 'h1' } as const;
const all = { scope: 'deployment', subjectId: 'all' } as const;
const use = { inputTokens: 100, outputTokens: 20, cost: 0.5 };

function repo(fail = 0) {
  const writes: SpendRow[][] = [];
  let failures = fail;
  return {
    writes,
    addMany(rows: readonly SpendRow[]) {
      if (failures-- > 0) return Promise.reject(new Error('store away'));
      writes.push(rows.map((r) => ({ ...r })));
      return Promise.resolve();
    },
  };
}

describe('SpendBuffer', () => {
  it('writes each counter once per flush, summing its calls, and counts what is unwritten meanwhile', async () => {
    const r = repo();
    const b = new SpendBuffer(r, { log: pino({ level: 'silent' }), flushMs: 60_000 });
    b.add('2026-12-01', [person, all], use);
    b.add('2026-12-01', [person, all], use);
    expect(b.unwritten('2026-12-01', 'person', 'h1')).toEqual({ tokens: 240, cost: 1 });
    expect(b.unwritten('2026-12-02', 'person', 'h1')).toEqual({ tokens: 0, cost: 0 });
    expect(r.writes).toEqual([]);
    await b.flush();
    expect(r.writes).toHaveLength(1);
    expect(r.writes[0]).toEqual([
      { day: '2026-12-01', ...person, inputTokens: 200, outputTokens: 40, cost: 1, calls: 2 },
      { day: '2026-12-01', ...all, inputTokens: 200, outputTokens: 40, cost: 1, calls: 2 },
    ]);
    expect(b.unwritten('2026-12-01', 'person', 'h1')).toEqual({ tokens: 0, cost: 0 });
    await b.flush();
    expect(r.writes).toHaveLength(1);
  });

  it('keeps a failed write for the next flush, merged with what came since', async () => {
    const r = repo(1);
    const b = new SpendBuffer(r, { log: pino({ level: 'silent' }), flushMs: 60_000 });
    b.add('2026-12-01', [person], use);
    await b.flush();
    expect(r.writes).toEqual([]);
    expect(b.unwritten('2026-12-01', 'person', 'h1').tokens).toBe(120);
    b.add('2026-12-01', [person], use);
    await b.flush();
    expect(r.writes).toEqual([
      [{ day: '2026-12-01', ...person, inputTokens: 200, outputTokens: 40, cost: 1, calls: 2 }],
    ]);
  });

  it('flushes by itself after the flush time', async () => {
    const r = repo();
    const b = new SpendBuffer(r, { log: pino({ level: 'silent' }), flushMs: 20 });
    b.add('2026-12-01', [person], use);
    await new Promise((done) => setTimeout(done, 80));
    expect(r.writes).toHaveLength(1);
  });
});
