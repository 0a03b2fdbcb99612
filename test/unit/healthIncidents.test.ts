// The incidents feed's rules (src/health/incidents.ts), without I/O: which records are incidents,
// of which kind, with what an operator reads, newest first and each naming its turn.
import { describe, expect, it } from 'vitest';
import {
  budgetStopIncident,
  callIncident,
  degradedRecallIncident,
  deliveryIncident,
  mergeIncidents,
  moderationIncident,
} from '../../src/health/incidents.js';

const at = (min: number) => new Date(Date.UTC(2026, 10, 28, 12, min));
const ev = (id: string, min: number, data: Record<string, unknown>) => ({
  _id: id,
  at: at(min),
  dialogueId: 'dlg_1',
  turnId: `trn_${id}`,
  data,
});

describe('incidents', () => {
  it('says what moderation did in each direction, and when its endpoint let a text through unchecked', () => {
    const flaggedIn = { direction: 'in', flagged: true, by: 'keyword', matched: '赌博', text: 'never shown here' };
    expect(moderationIncident(ev('m1', 3, flaggedIn))).toMatchObject({
      kind: 'moderation',
      turnId: 'trn_m1',
      message: 'incoming message flagged by keyword "赌博": not sent to the model',
    });
    const withheld = { direction: 'out', flagged: true, by: 'endpoint', categories: ['violence', 'hate'] };
    expect(moderationIncident(ev('m2', 3, withheld)).message).toBe(
      'reply flagged by endpoint: violence, hate: withheld, a notice shown instead',
    );
    const unchecked = { direction: 'out', flagged: false, endpointFailed: 'no answer within 5000 ms' };
    expect(moderationIncident(ev('m3', 3, unchecked)).message).toBe(
      'moderation endpoint failed (no answer within 5000 ms): the reply passed unchecked by it',
    );
  });

  it('names a model timeout apart from a model error, with the task and code', () => {
    expect(callIncident(ev('a', 1, { error: 'timed out after 60 s', errorCode: 'GENERATION_TIMEOUT' }))).toMatchObject({
      kind: 'model_timeout',
      message: 'GENERATION_TIMEOUT: timed out after 60 s',
    });
    expect(callIncident(ev('b', 1, { error: 'upstream exploded', task: 'summary' }))).toMatchObject({
      kind: 'model_error',
      message: 'summary: upstream exploded',
    });
    expect(callIncident(ev('c', 1, {}))).toBeNull();
    expect(deliveryIncident(ev('d', 1, { ok: true }))).toBeNull();
  });

  it('reports degraded recall only when memory recall or knowledge search fell back', () => {
    expect(degradedRecallIncident(ev('r', 2, { recall: { degraded: null }, knowledge: null }))).toBeNull();
    expect(degradedRecallIncident(ev('r', 2, { recall: { degraded: 'keyword_only' } }))).toMatchObject({
      kind: 'degraded_recall',
      turnId: 'trn_r',
      message: 'memory recall keyword_only',
    });
    expect(
      degradedRecallIncident(
        ev('s', 2, { recall: { degraded: 'index_loading' }, knowledge: { degraded: 'keyword_only' } }),
      )?.message,
    ).toBe('memory recall index_loading; knowledge search keyword_only');
  });

  it('says which budget stopped a room’s own rounds and what was spent', () => {
    expect(budgetStopIncident(ev('f', 3, { decision: 'chain_stopped', why: 'tokens', tokens: 1200 }))).toMatchObject({
      kind: 'room_budget_stop',
      turnId: 'trn_f',
      message: "the agents' own rounds stopped: tokens budget used up, 1200 tokens spent",
    });
  });

  it('merges the kinds newest first, at most the limit', () => {
    const merged = mergeIncidents(
      [
        [callIncident(ev('a', 1, { error: 'x' })), null],
        [degradedRecallIncident(ev('r', 3, { recall: { degraded: 'keyword_only' } }))],
        [budgetStopIncident(ev('f', 2, { why: 'rounds' }))],
      ],
      2,
    );
    expect(merged.map((i) => i.kind)).toEqual(['degraded_recall', 'room_budget_stop']);
  });
});
