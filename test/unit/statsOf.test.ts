// The statistics fold (src/stats/statsOf.ts), without I/O: counts by status and role, tokens by
// task with the reply's own calls named `reply` and reflection runs counted under `reflection`.
import { describe, expect, it } from 'vitest';
import { statsOf, tokenUseByTask } from '../../src/stats/statsOf.js';

const window = { since: new Date('2026-11-01T00:00:00Z'), until: new Date('2026-11-02T00:00:00Z') };

describe('statsOf', () => {
  it('sums each token field by task, the most spent first, reflections included', () => {
    const byTask = tokenUseByTask(
      [
        [
          'calls',
          [
            { _id: null, n: 2 },
            { _id: 'extract_memories', n: 1 },
          ],
        ],
        [
          'totalTokens',
          [
            { _id: null, n: 300 },
            { _id: 'extract_memories', n: 50 },
          ],
        ],
        ['promptTokens', [{ _id: null, n: 200 }]],
      ],
      [{ budget: { used: { calls: 3, promptTokens: 400, completionTokens: 100, tokens: 500 } } }],
    );
    expect(byTask.map((t) => [t.task, t.calls, t.totalTokens])).toEqual([
      ['reflection', 3, 500],
      ['reply', 2, 300],
      ['extract_memories', 1, 50],
    ]);
  });

  it('counts turns and messages by kind and says when reply times were sampled', () => {
    const s = statsOf(window, {
      created: 1,
      active: 2,
      sessions: 3,
      turnRows: [
        { _id: 'responded', n: 4 },
        { _id: 'unresponded', n: 1 },
      ],
      messageRows: [
        { _id: 'human', n: 5 },
        { _id: 'ai', n: 4 },
      ],
      latencies: [{ responseTime: 100 }, { responseTime: 300 }],
      tokenRows: [],
      runs: [],
    });
    expect(s.turns).toEqual({ total: 5, pending: 0, responded: 4, unresponded: 1 });
    expect(s.messages).toEqual({ total: 9, human: 5, ai: 4, system: 0 });
    expect(s.replyLatency.sampled).toBe(false);
    expect(s.tokens.totalTokens).toBe(0);
  });
});
