import { afterEach, describe, expect, it, vi } from 'vitest';
import { PREPARED_FRESH_MS, PreparedChecks } from '../../src/memory/preparedChecks.js';

describe('PreparedChecks', () => {
  afterEach(() => vi.useRealTimers());

  it('a prepared scope is taken once: the next recall checks the version again', () => {
    const p = new PreparedChecks();
    p.note('agt_1\u001fhum_1');
    expect(p.take('agt_1\u001fhum_1')).toBe(true);
    expect(p.take('agt_1\u001fhum_1')).toBe(false);
    expect(p.take('agt_1\u001fhum_2')).toBe(false);
  });

  it('a check older than PREPARED_FRESH_MS no longer counts', () => {
    vi.useFakeTimers();
    const p = new PreparedChecks();
    p.note('a');
    p.note('b');
    vi.advanceTimersByTime(PREPARED_FRESH_MS);
    expect(p.take('a')).toBe(true); // at the limit, still fresh
    vi.advanceTimersByTime(1);
    expect(p.take('b')).toBe(false);
  });
});
