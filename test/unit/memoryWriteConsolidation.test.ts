// Consolidation rules without I/O: kNN clusters, chunking for the model, low-value pruning, and
// the fake task brain that long tests rely on.
import { describe, expect, it } from 'vitest';
import type { MemoryEntry } from '../../src/domain/model.js';
import { chunkCluster, clusterByKnn } from '../../src/memory/cluster.js';
import { isLowValue, lowValueIds } from '../../src/memory/prune.js';
import { planMerge, renderConsolidationInput } from '../../src/memory/consolidation.js';
import { consolidateMemories, extractMemories, reconcileMemories } from '../doubles/fakeTaskBrain.js';

const v = (...xs: number[]): Float32Array => Float32Array.from(xs);

describe('clusterByKnn', () => {
  it('links entries above the threshold into connected components of two or more', () => {
    const items = [
      { id: 'a', vector: v(1, 0, 0) },
      { id: 'b', vector: v(0.95, 0.1, 0) },
      { id: 'x', vector: v(0, 0, 1) },
      { id: 'c', vector: v(0.85, 0.3, 0) }, // near b, a bit further from a: joins through the chain
      { id: 'y', vector: v(0, 1, 0) },
    ];
    expect(clusterByKnn(items, { k: 5, threshold: 0.9 })).toEqual([['a', 'b', 'c']]);
    expect(clusterByKnn(items, { k: 5, threshold: 0.999 })).toEqual([]);
  });

  it('uses cosine (length does not matter) and only the k nearest links per entry', () => {
    // A hub close to everyone, with k = 1 each spoke links only to the hub, so all join anyway;
    // two separate pairs stay separate.
    const items = [
      { id: 'p1', vector: v(1, 0.01, 0, 0) },
      { id: 'p2', vector: v(10, 0.2, 0, 0) },
      { id: 'q1', vector: v(0, 0, 1, 0.01) },
      { id: 'q2', vector: v(0, 0, 3, 0.05) },
    ];
    expect(clusterByKnn(items, { k: 1, threshold: 0.8 })).toEqual([
      ['p1', 'p2'],
      ['q1', 'q2'],
    ]);
  });

  it('splits a large cluster into calls of at most 12, evenly', () => {
    const ids = Array.from({ length: 25 }, (_, i) => `m${i}`);
    const chunks = chunkCluster(ids, 12);
    expect(chunks.map((c) => c.length)).toEqual([9, 9, 7]);
    expect(chunks.flat()).toEqual(ids);
    expect(chunkCluster(ids.slice(0, 5), 12)).toEqual([ids.slice(0, 5)]);
  });
});

const NOW = new Date('2026-03-01T00:00:00Z');
function mem(p: Partial<MemoryEntry> & { _id: string }): MemoryEntry {
  return {
    ownerId: 'agt',
    subjectId: 'hum',
    kind: 'fact',
    text: p._id,
    dedupeKey: p._id,
    importance: 0.1,
    sources: {},
    occurredAt: new Date('2026-01-01T00:00:00Z'),
    status: 'active',
    recall: { count: 0 },
    createdAt: new Date('2026-01-01T00:00:00Z'),
    updatedAt: new Date('2026-01-01T00:00:00Z'),
    ...p,
  };
}

describe('prune rule', () => {
  it('retires only unimportant, never recalled, old facts and events', () => {
    const entries = [
      mem({ _id: 'low' }),
      mem({ _id: 'lowEvent', kind: 'event' }),
      mem({ _id: 'important', importance: 0.3 }),
      mem({ _id: 'recalled', recall: { count: 1, lastAt: NOW } }),
      mem({ _id: 'recent', createdAt: new Date('2026-02-20T00:00:00Z') }),
      mem({ _id: 'preference', kind: 'preference' }),
      mem({ _id: 'summary', kind: 'summary' }),
      mem({ _id: 'gone', status: 'superseded' }),
    ];
    expect(lowValueIds(entries, NOW)).toEqual(['low', 'lowEvent']);
    expect(
      isLowValue(mem({ _id: 'recent', createdAt: new Date('2026-02-20T00:00:00Z') }), NOW, {
        minImportance: 0.3,
        minAgeDays: 5,
        keepKinds: [],
      }),
    ).toBe(true);
  });
});

describe('planMerge (checks on the model answer)', () => {
  const group = [
    mem({ _id: 'a', text: 'User likes green tea', importance: 0.6, kind: 'preference' }),
    mem({ _id: 'b', text: 'User drinks green tea every morning', importance: 0.7, kind: 'preference' }),
    mem({ _id: 'c', text: 'User lives in Berlin', importance: 0.9 }),
    mem({ _id: 'd', text: 'User lives in Paris', importance: 0.9 }),
  ];

  it('merges named sources, supersedes contradicted ones and keeps whatever the model left out', () => {
    const plan = planMerge(
      group,
      {
        entries: [
          {
            text: 'User likes green tea and drinks it every morning',
            kind: 'preference',
            importance: 0.7,
            sourceIds: ['a', 'b', 'zz'],
          },
        ],
        contradicted: [
          { id: 'c', byId: 'd' },
          { id: 'x', byId: 'd' },
        ],
      },
      1000,
    );
    expect(plan.refined).toEqual([
      {
        text: 'User likes green tea and drinks it every morning',
        kind: 'preference',
        importance: 0.7,
        sourceIds: ['a', 'b'],
      },
    ]);
    expect(plan.contradicted).toEqual([{ id: 'c', byId: 'd' }]);
    expect(plan.kept).toEqual(['d']);
    expect(plan.problems).toHaveLength(2);
  });

  it('never merges a contradicted entry, and refuses a text it would have to cut', () => {
    const plan = planMerge(
      group,
      {
        entries: [
          { text: 'User lives in Berlin and Paris', sourceIds: ['c', 'd'] },
          { text: 'x'.repeat(60), sourceIds: ['a', 'b'] },
        ],
        contradicted: [{ id: 'c', byId: 'd' }],
      },
      50,
    );
    // Only d is left as a source: kind and importance come from it.
    expect(plan.refined).toEqual([
      { text: 'User lives in Berlin and Paris', kind: 'fact', importance: 0.9, sourceIds: ['d'] },
    ]);
    expect(plan.kept).toEqual(['a', 'b']);
  });

  it('skips a rewrite of one entry that changes nothing and ignores broken entries', () => {
    const plan = planMerge(
      group,
      {
        entries: [{ text: 'user likes green tea.', sourceIds: ['a'] }, { sourceIds: ['b'] }, 'nonsense'],
        contradicted: [],
      },
      1000,
    );
    expect(plan.refined).toEqual([]);
    expect(plan.kept).toEqual(['a', 'b', 'c', 'd']);
  });

  it('renders the group in the layout the prompt describes', () => {
    expect(renderConsolidationInput(group.slice(0, 1))).toBe(
      'Memories:\n- id=a [preference] (importance 0.60, 2026-01-01) User likes green tea',
    );
  });
});

describe('fake task brain', () => {
  const transcript = [
    'Date: 2026-01-05 (UTC)',
    'Conversation:',
    '[2026-01-05T10:00:00.000Z] user (Alice): Hi! I live in Berlin.',
    '[2026-01-05T10:00:01.000Z] assistant (Rainbow): I love Berlin too!',
    '[2026-01-05T10:01:00.000Z] user (Alice): Yesterday I went to the zoo.',
    '[2026-01-05T10:02:00.000Z] user (Alice): Do you like tea?',
    '[2026-01-05T10:03:00.000Z] user (Alice): 我喜欢猫。',
    '[2026-01-05T10:04:00.000Z] user (Alice): my favourite colour is green.',
    '    I have a cat.',
  ].join('\n');

  it('extracts one third-person memory per user line with statements, at its own time', () => {
    expect(extractMemories(transcript).memories).toEqual([
      { kind: 'fact', text: 'User lives in Berlin.', importance: 0.8, occurredAt: '2026-01-05T10:00:00.000Z' },
      {
        kind: 'event',
        text: 'Yesterday User went to the zoo.',
        importance: 0.6,
        occurredAt: '2026-01-04T10:01:00.000Z',
      },
      { kind: 'preference', text: '用户喜欢猫。', importance: 0.6, occurredAt: '2026-01-05T10:03:00.000Z' },
      {
        kind: 'preference',
        text: "User's favourite colour is green. User has a cat.",
        importance: 0.6,
        occurredAt: '2026-01-05T10:04:00.000Z',
      },
    ]);
  });

  it('invalidates a stored memory of the same slot, noops a near-identical one, adds the rest', () => {
    const input = [
      'Candidates:',
      '#0 [fact] User moved to Paris',
      '  similar stored memories:',
      '  - id=m1 (fact, 2026-01-05) User lives in Berlin.',
      '#1 [fact] User lives in Berlin',
      '  similar stored memories:',
      '  - id=m1 (fact, 2026-01-05) User lives in Berlin.',
      '#2 [fact] 用户搬到上海',
      '  similar stored memories:',
      '  - id=m2 (fact, 2026-01-05) 用户住在北京',
      '#3 [preference] User likes tea',
      '  similar stored memories:',
      '  - id=m1 (fact, 2026-01-05) User lives in Berlin.',
    ].join('\n');
    expect(reconcileMemories(input).operations).toEqual([
      { candidate: 0, op: 'invalidate', targetId: 'm1' },
      { candidate: 1, op: 'noop', targetId: 'm1' },
      { candidate: 2, op: 'invalidate', targetId: 'm2' },
      { candidate: 3, op: 'add' },
    ]);
  });

  it('merges a cluster into one entry that keeps every text and source', () => {
    const input = [
      'Memories:',
      '- id=a [preference] (importance 0.60, 2026-01-05) User likes green tea.',
      '- id=b [preference] (importance 0.80, 2026-01-06) User likes green tea',
      '- id=c [fact] (importance 0.50, 2026-01-07) User drinks green tea every morning.',
    ].join('\n');
    expect(consolidateMemories(input)).toEqual({
      entries: [
        {
          text: 'User likes green tea; User drinks green tea every morning.',
          kind: 'preference',
          importance: 0.8,
          sourceIds: ['a', 'b', 'c'],
        },
      ],
      contradicted: [],
    });
  });
});
