import { describe, expect, it } from 'vitest';
import { countTokens, encode, encodeChat } from 'gpt-tokenizer/encoding/o200k_base';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { MESSAGE_OVERHEAD_TOKENS, REPLY_PRIMING_TOKENS, TokenCounter } from '../../src/llm/tokens.js';

type ChatInput = Parameters<typeof encodeChat>[0];

describe('TokenCounter', () => {
  it('counts a text exactly as the o200k tokenizer does, English and Chinese', () => {
    const counter = new TokenCounter();
    for (const text of [
      'hello world',
      '你好，我最近有点担心手术后的恢复。',
      'Mixed 中英文 text with emoji 😊 and code `x = 1`',
    ]) {
      expect(counter.count(text)).toBe(encode(text).length);
    }
    expect(counter.count('')).toBe(0);
  });

  it('counts a whole request as the chat encoding does (per-message overhead and reply priming)', () => {
    const counter = new TokenCounter();
    const chat: ChatCompletionMessageParam[] = [
      { role: 'system', content: 'You are Rainbow, a warm companion.' },
      { role: 'user', content: '我今天有点累' },
      { role: 'assistant', content: 'Take a rest — want to talk about it?' },
      { role: 'user', content: 'ok' },
    ];
    const expected = encodeChat(chat as ChatInput, 'gpt-4o').length;
    expect(counter.countMessages(chat)).toBe(expected);
    expect(counter.countMessage({ role: 'user', content: 'ok' })).toBe(countTokens('ok') + MESSAGE_OVERHEAD_TOKENS);
    expect(counter.countMessages([])).toBe(REPLY_PRIMING_TOKENS);
  });

  it('treats special-token strings in user text as ordinary text instead of throwing', () => {
    const counter = new TokenCounter();
    expect(counter.count('a <|endoftext|> b')).toBeGreaterThan(3);
  });

  it('counts the text parts of multi-part content and the name field', () => {
    const counter = new TokenCounter();
    const parts = counter.countMessage({
      role: 'user',
      content: [
        { type: 'text', text: 'hello' },
        { type: 'text', text: 'world' },
      ],
    });
    expect(parts).toBe(countTokens('hello') + countTokens('world') + MESSAGE_OVERHEAD_TOKENS);
    const named = counter.countMessage({ role: 'user', content: 'hi', name: 'Alice' });
    expect(named).toBeGreaterThan(counter.countMessage({ role: 'user', content: 'hi' }));
  });

  it('does not tokenise the same text twice (a second pass over a long history is all cache hits)', () => {
    const counter = new TokenCounter();
    const history = Array.from(
      { length: 1000 },
      (_, i) => `message number ${i}: ${'some longer text that goes past the short-key limit '.repeat(2)}`,
    );
    const first = history.map((t) => counter.count(t));
    const before = counter.stats();
    expect(before.misses).toBe(1000);
    const second = history.map((t) => counter.count(t));
    expect(second).toEqual(first);
    expect(counter.stats().hits).toBe(1000);
    expect(counter.stats().misses).toBe(1000);
  });

  it('keeps the cache bounded, evicting the least recently used entry', () => {
    const counter = new TokenCounter(3);
    counter.count('one');
    counter.count('two');
    counter.count('three');
    counter.count('one'); // now most recently used
    counter.count('four'); // evicts "two"
    expect(counter.stats().size).toBe(3);
    const misses = counter.stats().misses;
    counter.count('one');
    expect(counter.stats().misses).toBe(misses);
    counter.count('two');
    expect(counter.stats().misses).toBe(misses + 1);
  });
});
