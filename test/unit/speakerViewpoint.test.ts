// Two agents share one chat: each sees its own messages as its own (assistant) and the other's
// as a named participant's — never as something it said itself.
import { describe, expect, it } from 'vitest';
import { buildContext, type ContextInput } from '../../src/context/buildContext.js';
import { TokenCounter } from '../../src/llm/tokens.js';
import type { Message, Role } from '../../src/domain/model.js';

const now = new Date('2024-05-01T10:00:00.000Z');
const counter = new TokenCounter();
const limits = { maxTotalTokens: 100_000, middleSectionWarningTokens: 20_000 };
const AGENTS = { 'agt-rain': 'Rainbow', 'agt-bea': 'Bea' } as const;
type AgentId = keyof typeof AGENTS;

let seq = 0;
function said(senderRole: Role, senderId: string, content: string, extra: Partial<Message> = {}): Message {
  seq += 1;
  return {
    _id: `m-${seq}`,
    dialogueId: 'd-1',
    sessionId: 's-1',
    turnId: `t-${seq}`,
    senderRole,
    senderId,
    contentType: 'text',
    content,
    mentions: [],
    visible: true,
    ...(senderRole === 'human'
      ? { contentMeta: { senderName: 'Ada' } }
      : { delivery: { state: 'complete', platformMessageIds: [] } }),
    createdAt: new Date(now.getTime() + seq),
    updatedAt: now,
    ...extra,
  };
}

const history = [
  said('human', 'hum-ada', 'Who wants to plan the trip?'),
  said('ai', 'agt-rain', 'I can look at trains.'),
  said('ai', 'agt-bea', 'And I will find a hotel.'),
];
const current = [
  said('human', 'hum-ada', 'Great, Bea, which hotel?', {
    contentMeta: {
      senderName: 'Ada',
      quote: {
        platformMessageId: '3',
        text: 'And I will find a hotel.',
        messageId: 'm-3',
        senderRole: 'ai',
        senderId: 'agt-bea',
      },
    },
  }),
];

/** The context `self` builds in this chat, naming the other agent. */
function contextFor(self: AgentId) {
  const other = (Object.keys(AGENTS) as AgentId[]).find((id) => id !== self)!;
  const input: ContextInput = {
    agent: { name: AGENTS[self], basePersona: `You are ${AGENTS[self]}.` },
    recalled: [],
    history,
    current,
    now,
    timezone: 'UTC',
    groupChat: true,
    selfId: self,
    agentNames: { [other]: AGENTS[other] },
  };
  return buildContext(input, limits, counter).messages;
}

const promptFor = (self: AgentId) => contextFor(self).filter((m) => m.role !== 'system');

describe('speaker viewpoint', () => {
  it("renders the agent's own messages as its own and the other agent's as a named participant's", () => {
    expect(promptFor('agt-rain')).toEqual([
      { role: 'user', content: 'Ada: Who wants to plan the trip?' },
      { role: 'assistant', content: 'I can look at trains.' },
      { role: 'user', content: 'Bea: And I will find a hotel.' },
      { role: 'user', content: 'Ada: > Replying to Bea:\n> And I will find a hotel.\nGreat, Bea, which hotel?' },
    ]);
  });

  it('is the mirror image for the other agent', () => {
    expect(promptFor('agt-bea')).toEqual([
      { role: 'user', content: 'Ada: Who wants to plan the trip?' },
      { role: 'user', content: 'Rainbow: I can look at trains.' },
      { role: 'assistant', content: 'And I will find a hotel.' },
      { role: 'user', content: 'Ada: > Replying to Bea (you):\n> And I will find a hotel.\nGreat, Bea, which hotel?' },
    ]);
  });

  it('tells each agent who else speaks in the chat', () => {
    const system = (self: AgentId) => {
      const first = contextFor(self)[0]!.content;
      return typeof first === 'string' ? first : '';
    };
    expect(system('agt-rain')).toContain(
      'Other AIs share this chat (Bea); their messages start with their name. Speak only as Rainbow.',
    );
    expect(system('agt-bea')).toContain('(Rainbow)');
  });
});
