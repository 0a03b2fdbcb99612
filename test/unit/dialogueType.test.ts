import { describe, expect, it } from 'vitest';
import { dialogueTypeOf, type Participants } from '../../src/domain/dialogueType.js';
import type { DialogueType } from '../../src/domain/model.js';

describe('dialogueTypeOf: seed 000 seven types', () => {
  const cases: Array<[string, Participants, DialogueType | null]> = [
    ['① two humans in private, no agent', { humans: 2, agents: 0, groupChat: false }, null],
    ['② humans in a group, no agent', { humans: 5, agents: 0, groupChat: true }, null],
    ['③ one human and one agent in private', { humans: 1, agents: 1, groupChat: false }, 'human_ai'],
    ['④ two agents, no human', { humans: 0, agents: 2, groupChat: false }, 'ai_ai'],
    ['⑤ one agent alone (self)', { humans: 0, agents: 1, groupChat: false }, 'ai_self'],
    [
      '⑥ one human with two agents they own',
      { humans: 1, agents: 2, groupChat: true, humanOwnsAgents: true },
      'lio_group',
    ],
    ['⑦ a group chat with humans and an agent', { humans: 3, agents: 1, groupChat: true }, 'group'],
  ];

  it.each(cases)('%s', (_label, participants, expected) => {
    expect(dialogueTypeOf(participants)).toBe(expected);
  });
});

describe('dialogueTypeOf: neighbours of the seven types', () => {
  it('one human and one agent in a group chat is a group, not a private human_ai', () => {
    expect(dialogueTypeOf({ humans: 1, agents: 1, groupChat: true })).toBe('group');
  });

  it('one human with two agents they do not own is a group', () => {
    expect(dialogueTypeOf({ humans: 1, agents: 2, groupChat: true, humanOwnsAgents: false })).toBe('group');
    expect(dialogueTypeOf({ humans: 1, agents: 2, groupChat: true })).toBe('group');
  });

  it('two humans owning the agents is not lio_group (LIO is one human)', () => {
    expect(dialogueTypeOf({ humans: 2, agents: 2, groupChat: true, humanOwnsAgents: true })).toBe('group');
  });

  it('owning a single agent is still human_ai in private', () => {
    expect(dialogueTypeOf({ humans: 1, agents: 1, groupChat: false, humanOwnsAgents: true })).toBe('human_ai');
  });

  it('three agents and no human are ai_ai', () => {
    expect(dialogueTypeOf({ humans: 0, agents: 3, groupChat: true })).toBe('ai_ai');
  });
});
