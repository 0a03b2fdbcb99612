// Memory write rules without I/O: dedupe key, clamp, reconcile plans/decisions, model output parsing.
import { describe, expect, it } from 'vitest';
import type { MemoryEntry } from '../../src/domain/model.js';
import { clampMemoryText, dedupeKeyOf, normalizeMemoryText } from '../../src/memory/normalize.js';
import { parseExtraction, renderExtractionInput, renderReconcileInput } from '../../src/memory/extractionPrompt.js';
import {
  askedCandidates,
  decide,
  planCandidates,
  type Candidate,
  type SimilarHit,
} from '../../src/memory/reconcile.js';

const AT = new Date('2026-01-05T10:00:00.000Z');

function entry(id: string, text: string, status: MemoryEntry['status'] = 'active'): MemoryEntry {
  return {
    _id: id,
    ownerId: 'agt',
    subjectId: 'hum',
    kind: 'fact',
    text,
    dedupeKey: dedupeKeyOf('agt', 'hum', text),
    importance: 0.8,
    sources: {},
    occurredAt: AT,
    status,
    recall: { count: 0 },
    createdAt: AT,
    updatedAt: AT,
  };
}
const cand = (text: string): Candidate => ({
  kind: 'fact',
  text,
  importance: 0.8,
  occurredAt: AT,
  dedupeKey: dedupeKeyOf('agt', 'hum', text),
});
const hit = (e: MemoryEntry, score: number): SimilarHit => ({ entry: e, score });

describe('dedupe key', () => {
  it('ignores case, spacing, punctuation and full-width forms', () => {
    expect(dedupeKeyOf('agt', 'hum', 'User lives in Berlin.')).toBe(
      dedupeKeyOf('agt', 'hum', '  user   LIVES in berlin '),
    );
    expect(dedupeKeyOf('agt', 'hum', '用户住在上海。')).toBe(dedupeKeyOf('agt', 'hum', '用户住在上海'));
    expect(normalizeMemoryText('ＵＳＥＲ likes ｔｅａ!')).toBe('user likes tea');
  });

  it('differs by owner, subject and wording', () => {
    const k = dedupeKeyOf('agt', 'hum', 'User lives in Berlin');
    expect(dedupeKeyOf('agt2', 'hum', 'User lives in Berlin')).not.toBe(k);
    expect(dedupeKeyOf('agt', 'hum2', 'User lives in Berlin')).not.toBe(k);
    expect(dedupeKeyOf('agt', undefined, 'User lives in Berlin')).not.toBe(k);
    expect(dedupeKeyOf('agt', 'hum', 'User lives in Paris')).not.toBe(k);
  });
});

describe('clampMemoryText', () => {
  it('keeps short text whole', () => {
    expect(clampMemoryText('  User likes tea.  ', 100)).toBe('User likes tea.');
  });

  it('cuts English at the last sentence end within the limit', () => {
    const text =
      'User lives in Berlin. User works as a nurse at the Charité hospital. User has two cats named Mia and Leo.';
    const out = clampMemoryText(text, 80);
    expect(out).toBe('User lives in Berlin. User works as a nurse at the Charité hospital.');
    expect(out.length).toBeLessThanOrEqual(80);
  });

  it('cuts Chinese at a full stop', () => {
    const text = '用户住在上海。用户在一家医院当护士，工作很忙。用户养了两只猫，一只叫团子，一只叫年糕，它们都很黏人。';
    const out = clampMemoryText(text, 30);
    expect(out).toBe('用户住在上海。用户在一家医院当护士，工作很忙。');
    expect(Array.from(out).length).toBeLessThanOrEqual(30);
  });

  it('falls back to a word break, then a hard cut, marked with an ellipsis', () => {
    const en = clampMemoryText('User enjoys very long walks along the river with friends on sunny weekends', 30);
    expect(en.endsWith('…')).toBe(true);
    expect(en.length).toBeLessThanOrEqual(30);
    expect(en).toBe('User enjoys very long walks…');
    const zh = clampMemoryText('用'.repeat(100), 20);
    expect(Array.from(zh).length).toBe(20);
    expect(zh.endsWith('…')).toBe(true);
  });

  it('never splits a surrogate pair', () => {
    const out = clampMemoryText('😀'.repeat(50), 10);
    expect(Array.from(out).length).toBeLessThanOrEqual(10);
    expect(out).toBe(`${'😀'.repeat(9)}…`);
  });
});

describe('extraction output', () => {
  it('drops invalid entries and keeps the rest of the batch', () => {
    const { candidates, dropped } = parseExtraction([
      { kind: 'fact', text: 'User lives in Berlin', importance: 0.9, occurredAt: '2026-01-05T10:00:00Z' },
      { kind: 'opinion', text: 'User is nice', importance: 0.5 },
      { kind: 'preference', text: '   ', importance: 0.5 },
      'not an object',
      { kind: 'event', text: 'User went to the zoo', importance: 7, occurredAt: 'last tuesday' },
    ]);
    expect(candidates).toEqual([
      { kind: 'fact', text: 'User lives in Berlin', importance: 0.9, occurredAt: new Date('2026-01-05T10:00:00Z') },
      // Importance out of range is clamped; an unreadable time falls back to the message time later.
      { kind: 'event', text: 'User went to the zoo', importance: 1 },
    ]);
    expect(dropped.map((d) => d.index)).toEqual([1, 2, 3]);
  });

  it('renders the transcript with the messages own timestamps', () => {
    const input = renderExtractionInput({
      now: AT,
      userName: 'Alice',
      lines: [
        { at: AT, role: 'user', name: 'Alice', text: 'I moved to Paris\nlast week' },
        { at: new Date(AT.getTime() + 1000), role: 'assistant', name: 'Rainbow', text: 'How exciting!' },
      ],
    });
    expect(input).toContain('[2026-01-05T10:00:00.000Z] user (Alice): I moved to Paris\n    last week');
    expect(input).toContain('[2026-01-05T10:00:01.000Z] assistant (Rainbow): How exciting!');
    expect(input).toContain('Date: 2026-01-05');
  });
});

describe('reconcile plans', () => {
  it('settles exact duplicates without the model and adds what has nothing similar', () => {
    const berlin = entry('m1', 'User lives in Berlin');
    const merged = entry('m2', 'User likes tea', 'merged');
    const cs = [cand('user lives in Berlin!'), cand('User likes tea'), cand('User has a cat'), cand('User has a cat.')];
    const plans = planCandidates(
      cs,
      new Map([
        [berlin.dedupeKey, berlin],
        [merged.dedupeKey, merged],
      ]),
      [[hit(berlin, 1)], [], [hit(berlin, 0.1)], []],
    );
    expect(plans.map((p) => p.action)).toEqual(['duplicate', 'duplicate', 'add', 'batch_duplicate']);
    const { decisions } = decide(cs, plans, []);
    expect(decisions.map((d) => d.kind)).toEqual(['noop', 'noop', 'add', 'noop']);
  });

  it('asks about candidates with similar entries above the threshold, top 5', () => {
    const near = Array.from({ length: 7 }, (_, i) => hit(entry(`m${i}`, `User fact ${i}`), 0.5 + i * 0.05));
    const plans = planCandidates([cand('User moved to Paris')], new Map(), [near], { threshold: 0.6, topK: 5 });
    expect(plans[0]!.action).toBe('ask');
    const shown = plans[0]!.action === 'ask' ? plans[0]!.similar.map((h) => h.entry._id) : [];
    expect(shown).toEqual(['m6', 'm5', 'm4', 'm3', 'm2']);
  });

  it('reactivates a restated superseded entry and supersedes only what the model names', () => {
    const berlin = entry('m1', 'User lives in Berlin', 'superseded');
    const paris = entry('m2', 'User moved to Paris');
    const cs = [cand('User lives in Berlin')];
    const plans = planCandidates(cs, new Map([[berlin.dedupeKey, berlin]]), [[hit(paris, 0.5)]]);
    expect(plans[0]).toMatchObject({ action: 'reactivate', existing: { _id: 'm1' } });
    expect(decide(cs, plans, [{ candidate: 0, op: 'invalidate', targetId: 'm2' }]).decisions).toEqual([
      { kind: 'reactivate', id: 'm1', supersede: ['m2'] },
    ]);
    expect(decide(cs, plans, [{ candidate: 0, op: 'add' }]).decisions).toEqual([
      { kind: 'reactivate', id: 'm1', supersede: [] },
    ]);
    expect(decide(cs, plans, 'unavailable').decisions).toEqual([{ kind: 'reactivate', id: 'm1', supersede: [] }]);
  });

  it('turns valid model operations into add/update/invalidate/noop and ignores unknown ids', () => {
    const berlin = entry('m1', 'User lives in Berlin');
    const nurse = entry('m2', 'User works as a nurse');
    const tea = entry('m3', 'User likes tea');
    const cs = [
      cand('User moved to Paris'),
      cand('User works as a nurse at Charité'),
      cand('User likes tea'),
      cand('User has a cat'),
      cand('User plays chess'),
    ];
    const similar = [[hit(berlin, 0.6)], [hit(nurse, 0.8)], [hit(tea, 0.95)], [hit(tea, 0.4)], [hit(tea, 0.4)]];
    // 'User likes tea' has the same key as m3 → settled as duplicate before asking.
    const plans = planCandidates(cs, new Map([[tea.dedupeKey, tea]]), similar);
    expect(askedCandidates(plans)).toEqual([0, 1, 3, 4]);
    const { decisions, problems } = decide(cs, plans, [
      { candidate: 0, op: 'invalidate', targetId: 'm1' },
      { candidate: 1, op: 'update', targetId: 'm2', text: 'User works as a nurse at the Charité hospital' },
      { candidate: 2, op: 'invalidate', targetId: 'm3' }, // prompt candidate 2 is batch candidate 3: m3 was shown
      { candidate: 3, op: 'invalidate', targetId: 'mem_made_up' },
      { candidate: 9, op: 'add' },
      { candidate: 0, op: 'explode' },
    ]);
    expect(decisions).toEqual([
      { kind: 'add', supersede: ['m1'] },
      { kind: 'update', targetId: 'm2', text: 'User works as a nurse at the Charité hospital' },
      { kind: 'noop', reason: 'duplicate', targetId: 'm3' },
      { kind: 'add', supersede: ['m3'] },
      // Its only operation named an unknown id: added, never lost.
      { kind: 'add', supersede: [] },
    ]);
    expect(problems.join('\n')).toMatch(/unknown targetId mem_made_up/);
    expect(problems.join('\n')).toMatch(/unknown candidate 9/);
    expect(problems.join('\n')).toMatch(/operation 5: invalid/);
  });

  it('adds every asked candidate when the model is down', () => {
    const berlin = entry('m1', 'User lives in Berlin');
    const cs = [cand('User moved to Paris'), cand('User lives in Berlin')];
    const plans = planCandidates(cs, new Map([[berlin.dedupeKey, berlin]]), [[hit(berlin, 0.6)], [hit(berlin, 1)]]);
    expect(decide(cs, plans, 'unavailable').decisions).toEqual([
      { kind: 'add', supersede: [] },
      { kind: 'noop', reason: 'duplicate', targetId: 'm1' },
    ]);
  });

  it('renders candidates with the ids the model may name', () => {
    const text = renderReconcileInput([
      {
        candidate: { kind: 'fact', text: 'User moved\nto Paris' },
        similar: [{ id: 'm1', kind: 'fact', text: 'User lives in Berlin', occurredAt: AT, score: 0.6 }],
      },
    ]);
    expect(text).toBe(
      'Candidates:\n#0 [fact] User moved to Paris\n  similar stored memories:\n  - id=m1 (fact, 2026-01-05) User lives in Berlin',
    );
  });
});
