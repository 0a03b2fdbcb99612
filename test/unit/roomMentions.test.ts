// Which agents a room message calls on, and in what order (seed 002's @): "@Cedar @Aria hi"
// asks Cedar, then Aria — the order people wrote, not the order the room lists its agents.
import { describe, expect, it } from 'vitest';
import { mentionedAgents } from '../../src/domain/roomMentions.js';

const agents = [
  { _id: 'agt_aria', name: 'Aria', aliases: ['阿莉雅'] },
  { _id: 'agt_bo', name: 'Bo', bindings: [{ platform: 'telegram' as const, userId: '700', username: 'bo_bot' }] },
  { _id: 'agt_cedar', name: 'Cedar' },
];
const marks = (
  text: string,
  o: { mentions?: Array<{ userId?: string; username?: string }>; repliesTo?: string } = {},
) => ({
  platform: 'telegram' as const,
  text,
  mentions: o.mentions ?? [],
  ...(o.repliesTo ? { repliesToAgentId: o.repliesTo } : {}),
});

describe('mentionedAgents', () => {
  it('lists several mentions in the order they were written', () => {
    expect(mentionedAgents(marks('@Cedar @Aria hi'), agents)).toEqual(['agt_cedar', 'agt_aria']);
    expect(mentionedAgents(marks('@阿莉雅 和 @bo_bot 你们好', { mentions: [{ username: 'bo_bot' }] }), agents)).toEqual(
      ['agt_aria', 'agt_bo'],
    );
  });

  it('puts the agent replied to first and a mention by id (no @ in the text) last', () => {
    expect(
      mentionedAgents(
        marks('@Cedar what do you think?', { repliesTo: 'agt_aria', mentions: [{ userId: '700' }] }),
        agents,
      ),
    ).toEqual(['agt_aria', 'agt_cedar', 'agt_bo']);
  });

  it('does not call on a name said in passing, a longer word, or an unknown @', () => {
    expect(mentionedAgents(marks('Cedar said @Arianna and @nobody are here'), agents)).toEqual([]);
  });
});
