import { describe, expect, it } from 'vitest';
import { toResponsesInput } from '../../src/llm/responses.js';
import type { LlmMessage } from '../../src/llm/types.js';

describe('toResponsesInput', () => {
  it('turns system, user and assistant text into role items, in order', () => {
    const messages: LlmMessage[] = [
      { role: 'system', content: 'You are kind.' },
      { role: 'user', content: '你好' },
      { role: 'assistant', content: 'Hello!' },
      { role: 'user', content: 'And now?' },
    ];
    expect(toResponsesInput(messages)).toEqual([
      { role: 'system', content: 'You are kind.' },
      { role: 'user', content: '你好' },
      { role: 'assistant', content: 'Hello!' },
      { role: 'user', content: 'And now?' },
    ]);
  });

  it('keeps a developer message as a developer item', () => {
    expect(toResponsesInput([{ role: 'developer', content: 'Be brief.' }])).toEqual([
      { role: 'developer', content: 'Be brief.' },
    ]);
  });

  it('turns an assistant message with tool calls into its text plus one function_call per call', () => {
    const messages: LlmMessage[] = [
      {
        role: 'assistant',
        content: 'Let me check.',
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Paris"}' } },
          { id: 'call_2', type: 'function', function: { name: 'current_time', arguments: '{}' } },
        ],
      },
    ];
    expect(toResponsesInput(messages)).toEqual([
      { role: 'assistant', content: 'Let me check.' },
      { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"location":"Paris"}' },
      { type: 'function_call', call_id: 'call_2', name: 'current_time', arguments: '{}' },
    ]);
  });

  it.each([null, ''])('sends no assistant text item when the tool-calling message had no text (%j)', (content) => {
    const items = toResponsesInput([
      {
        role: 'assistant',
        content,
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'current_time', arguments: '' } }],
      },
    ]);
    expect(items).toEqual([{ type: 'function_call', call_id: 'call_1', name: 'current_time', arguments: '' }]);
  });

  it('passes malformed tool arguments through untouched (the model sees what it sent)', () => {
    const items = toResponsesInput([
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c', type: 'function', function: { name: 'x', arguments: '{"a":' } }],
      },
    ]);
    expect(items).toEqual([{ type: 'function_call', call_id: 'c', name: 'x', arguments: '{"a":' }]);
  });

  it('turns a tool message into a function_call_output with its call id and output', () => {
    expect(toResponsesInput([{ role: 'tool', tool_call_id: 'call_1', content: '{"temperatureC":21}' }])).toEqual([
      { type: 'function_call_output', call_id: 'call_1', output: '{"temperatureC":21}' },
    ]);
  });

  it('keeps a whole tool round in order: call, output, then the next assistant text', () => {
    const items = toResponsesInput([
      { role: 'user', content: 'Weather?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
      { role: 'assistant', content: 'It is sunny.' },
    ]);
    expect(items.map((i) => ('type' in i && i.type ? i.type : (i as { role: string }).role))).toEqual([
      'user',
      'function_call',
      'function_call_output',
      'assistant',
    ]);
  });

  it('joins array content parts into one text', () => {
    const items = toResponsesInput([
      {
        role: 'system',
        content: [
          { type: 'text', text: 'Rule one. ' },
          { type: 'text', text: 'Rule two.' },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Hello, ' },
          { type: 'text', text: 'world' },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Hi ' },
          { type: 'text', text: 'there' },
        ],
      },
      {
        role: 'tool',
        tool_call_id: 'call_9',
        content: [
          { type: 'text', text: '{"a":' },
          { type: 'text', text: '1}' },
        ],
      },
    ]);
    expect(items).toEqual([
      { role: 'system', content: 'Rule one. Rule two.' },
      { role: 'user', content: 'Hello, world' },
      { role: 'assistant', content: 'Hi there' },
      { type: 'function_call_output', call_id: 'call_9', output: '{"a":1}' },
    ]);
  });

  it('drops non-text parts when joining', () => {
    const items = toResponsesInput([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Look: ' },
          { type: 'image_url', image_url: { url: 'https://example.invalid/cat.png' } },
          { type: 'text', text: 'a cat' },
        ],
      },
    ]);
    expect(items).toEqual([{ role: 'user', content: 'Look: a cat' }]);
  });

  it('gives an empty input for no messages', () => {
    expect(toResponsesInput([])).toEqual([]);
  });
});
