import { describe, expect, it } from 'vitest';
import { buildPrompt, type BuiltPrompt, type PromptInput } from '../../src/context/buildPrompt.js';
import type { DeliveryState, Message, Role } from '../../src/domain/model.js';

const now = new Date('2024-05-01T10:00:00.000Z');
const agent = { name: 'Rainbow', basePersona: 'You are Rainbow, a warm companion.' };

let seq = 0;
function message(senderRole: Role, content: string, state?: DeliveryState): Message {
  seq += 1;
  return {
    _id: `m-${seq}`,
    dialogueId: 'd-1',
    sessionId: 's-1',
    turnId: 't-1',
    senderRole,
    senderId: senderRole === 'human' ? 'h-1' : 'a-1',
    contentType: 'text',
    content,
    mentions: [],
    visible: true,
    ...(state ? { delivery: { state, platformMessageIds: [] } } : {}),
    createdAt: now,
    updatedAt: now,
  };
}

function systemText(built: BuiltPrompt): string {
  const content = built.messages[0]?.content;
  if (typeof content !== 'string') throw new Error('system message content is not text');
  return content;
}

const input = (history: Message[], extra: Partial<PromptInput> = {}): PromptInput => ({ agent, history, now, ...extra });

describe('buildPrompt', () => {
  it('puts the system message first, with the persona and the current time', () => {
    const { messages } = buildPrompt(input([message('human', 'hi')]));
    expect(messages[0]?.role).toBe('system');
    expect(messages[0]?.content).toContain('You are Rainbow, a warm companion.');
    expect(messages[0]?.content).toContain('Current time: 2024-05-01 10:00 (UTC)');
    expect(messages.filter((m) => m.role === 'system')).toHaveLength(1);
  });

  it('shows the current time in the display timezone', () => {
    const { messages } = buildPrompt(input([message('human', 'hi')], { timezone: 'Asia/Shanghai' }));
    expect(messages[0]?.content).toContain('Current time: 2024-05-01 18:00 (Asia/Shanghai)');
  });

  it('ends with a one-off instruction when given one, after the history', () => {
    const built = buildPrompt(input([message('human', 'hi')], { instruction: 'Check in briefly.' }));
    expect(built.messages.at(-1)).toEqual({ role: 'system', content: 'Check in briefly.' });
    expect(built.messages.at(-2)).toEqual({ role: 'user', content: 'hi' });
    expect(built.parts.instruction).toBe('Check in briefly.'.length);
  });

  it('adds the evolved persona after the base persona', () => {
    const system = systemText(buildPrompt(input([], { agent: { ...agent, evolvedPersona: 'Likes puns.' } })));
    expect(system).toContain('Likes puns.');
    expect(system.indexOf('Likes puns.')).toBeGreaterThan(system.indexOf('warm companion'));
  });

  it('maps human messages to user and complete AI messages to assistant, oldest first', () => {
    const { messages } = buildPrompt(
      input([message('human', 'hi'), message('ai', 'hello!', 'complete'), message('human', 'how are you?')]),
    );
    expect(messages.slice(1)).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'hello!' },
      { role: 'user', content: 'how are you?' },
    ]);
  });

  it('keeps AI messages with no delivery record and interrupted ones (the user saw that text)', () => {
    const { messages } = buildPrompt(input([message('ai', 'legacy'), message('ai', 'half a rep', 'interrupted')]));
    expect(messages.slice(1).map((m) => m.content)).toEqual(['legacy', 'half a rep']);
  });

  it.each(['error', 'timeout', 'empty'] as const)('leaves out an AI message whose delivery state is %s', (state) => {
    const { messages } = buildPrompt(
      input([message('human', 'question'), message('ai', 'Sorry, something went wrong.', state), message('human', 'again?')]),
    );
    expect(messages.slice(1)).toEqual([
      { role: 'user', content: 'question' },
      { role: 'user', content: 'again?' },
    ]);
  });

  it('leaves out AI messages with no text and system messages', () => {
    const { messages } = buildPrompt(input([message('ai', '', 'complete'), message('system', 'notice'), message('human', 'hi')]));
    expect(messages.slice(1)).toEqual([{ role: 'user', content: 'hi' }]);
  });

  it('reports the size of each part in characters, counting only what went in', () => {
    const built = buildPrompt(
      input([message('human', 'abc'), message('ai', 'failure text', 'error'), message('ai', 'hello', 'complete')]),
    );
    expect(built.parts).toEqual({ system: systemText(built).length, recentMessages: 3 + 5, instruction: 0 });
  });

  it('has a stable hash for equal input', () => {
    const a = buildPrompt(input([message('human', 'hi'), message('ai', 'hello', 'complete')]));
    const b = buildPrompt(input([message('human', 'hi'), message('ai', 'hello', 'complete')]));
    expect(a.hash).toMatch(/^[0-9a-f]{16}$/);
    expect(b.hash).toBe(a.hash);
  });

  it('has a different hash when the history differs', () => {
    const a = buildPrompt(input([message('human', 'hi')]));
    const b = buildPrompt(input([message('human', 'hi!')]));
    const c = buildPrompt(input([message('human', 'hi'), message('human', 'hi')]));
    expect(new Set([a.hash, b.hash, c.hash]).size).toBe(3);
  });

  it('has the same hash when only excluded messages differ', () => {
    const a = buildPrompt(input([message('human', 'hi')]));
    const b = buildPrompt(input([message('human', 'hi'), message('ai', 'Sorry, timed out.', 'timeout')]));
    expect(b.hash).toBe(a.hash);
  });
});
