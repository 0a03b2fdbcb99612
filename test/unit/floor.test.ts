import { describe, expect, it } from 'vitest';
import { whoAnswers } from '../../src/domain/floor.js';

describe('whoAnswers (the floor)', () => {
  it('gives the floor to the addressed agent, who must answer', () => {
    expect(whoAnswers([{ agentId: 'agt-1', activation: { answer: true, why: 'mentioned' } }])).toEqual({
      speakers: [{ agentId: 'agt-1', obligation: 'must', why: 'mentioned' }],
    });
  });

  it('gives it to nobody when the message addresses no agent, saying why', () => {
    expect(whoAnswers([{ agentId: 'agt-1', activation: { answer: false, why: 'other_bot' } }])).toEqual({
      speakers: [],
      silentWhy: 'other_bot',
    });
    expect(whoAnswers([])).toEqual({ speakers: [], silentWhy: 'not_addressed' });
  });

  it("keeps the members' order among those addressed", () => {
    const d = whoAnswers([
      { agentId: 'a', activation: { answer: false, why: 'not_addressed' } },
      { agentId: 'b', activation: { answer: true, why: 'named' } },
      { agentId: 'c', activation: { answer: true, why: 'replied_to' } },
    ]);
    expect(d.speakers.map((s) => s.agentId)).toEqual(['b', 'c']);
  });
});
