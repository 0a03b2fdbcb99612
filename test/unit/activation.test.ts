import { describe, expect, it } from 'vitest';
import { activation, callsByName, type AddressCheck } from '../../src/domain/activation.js';

const group: AddressCheck = {
  chatKind: 'group',
  mentioned: false,
  repliedTo: false,
  named: false,
  answerAll: false,
  fromOtherBot: false,
};

describe('group activation', () => {
  it('answers every message in a private chat', () => {
    expect(activation({ ...group, chatKind: 'private' })).toEqual({ answer: true, why: 'private' });
  });
  it('keeps an unaddressed group message as context', () => {
    expect(activation(group)).toEqual({ answer: false, why: 'not_addressed' });
  });
  it.each([
    ['mentioned', { mentioned: true }],
    ['replied_to', { repliedTo: true }],
    ['named', { named: true }],
    ['answer_all', { answerAll: true }],
  ] as const)('answers in a group when %s', (why, patch) => {
    expect(activation({ ...group, ...patch })).toEqual({ answer: true, why });
  });
  it('never answers another bot, even when it mentions us (no bot-to-bot loops)', () => {
    expect(activation({ ...group, mentioned: true, fromOtherBot: true })).toEqual({ answer: false, why: 'other_bot' });
    expect(activation({ ...group, chatKind: 'private', fromOtherBot: true }).answer).toBe(false);
  });
});

describe('callsByName', () => {
  it('finds a Latin name as a word, case-insensitively', () => {
    expect(callsByName('hey rainbow, what time is it?', ['Rainbow'])).toBe(true);
    expect(callsByName('Rainbow', ['Rainbow'])).toBe(true);
    expect(callsByName('I love rainbows', ['Rainbow'])).toBe(false);
    expect(callsByName('rainbow_bot said', ['Rainbow'])).toBe(false);
  });
  it('finds a CJK name inside a sentence', () => {
    expect(callsByName('小虹你好呀', ['小虹'])).toBe(true);
    expect(callsByName('今天天气不错', ['小虹'])).toBe(false);
  });
  it('treats regex characters in names literally and ignores empty names', () => {
    expect(callsByName('ask c++ please', ['C++'])).toBe(true);
    expect(callsByName('anything', ['', '  '])).toBe(false);
    expect(callsByName(undefined, ['Rainbow'])).toBe(false);
  });
});
