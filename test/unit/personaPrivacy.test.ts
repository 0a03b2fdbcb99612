// The persona's privacy rules over plain data: the agent-wide text's check, and the name a
// person asked to be called.
import { describe, expect, it } from 'vitest';
import { scrubPeople } from '../../src/persona/personaScrub.js';
import { calledNameIn, latestCalledName } from '../../src/domain/calledName.js';

describe('scrubPeople', () => {
  const known = {
    names: ['林夏', 'Alice'],
    said: ['我怀孕了，这件事请先不要告诉任何人', 'I am secretly quitting my job next month'],
  };

  it('drops every sentence that names a known person or quotes one, and keeps the rest', () => {
    const r = scrubPeople(
      '你变得更温柔了。你了解到：林夏在偷偷准备辞职；她最近确诊了抑郁症。Recently: 我怀孕了，这件事请先不要告诉任何人; 你开始喜欢爵士乐。',
      known,
    );
    expect(r.text).toBe('你变得更温柔了。她最近确诊了抑郁症。你开始喜欢爵士乐。');
    expect(r.dropped).toBe(2);
  });

  it('matches a latin name as a word only, and cuts English sentences at a full stop before a space', () => {
    const r = scrubPeople(
      'You grew annual habits. You know alice is quitting. Someone is secretly quitting my job next month. Pi is 3.14 to you.',
      known,
    );
    expect(r.text).toBe('You grew annual habits. Pi is 3.14 to you.');
    expect(r.dropped).toBe(2);
  });

  it('leaves a text about no one as it is', () => {
    expect(scrubPeople('You have grown fond of rain.', known)).toEqual({
      text: 'You have grown fond of rain.',
      dropped: 0,
    });
  });
});

describe('calledName', () => {
  it('reads the name a person asks for, in their words or in a memory', () => {
    expect(calledNameIn('以后叫我阿明就好')).toBe('阿明');
    expect(calledNameIn('你可以叫我小王吧')).toBe('小王');
    expect(calledNameIn('叫我"阿明"就行')).toBe('阿明');
    expect(calledNameIn('用户希望被称为阿明')).toBe('阿明');
    expect(calledNameIn('小明希望大家叫他阿明')).toBe('阿明');
    expect(calledNameIn('User prefers to be called Ming.')).toBe('Ming');
    expect(calledNameIn('call me Ann')).toBe('Ann');
  });

  it('is not fooled by requests that are not names', () => {
    expect(calledNameIn('明天早上叫我起床')).toBeUndefined();
    expect(calledNameIn('记得叫我吃饭')).toBeUndefined();
    expect(calledNameIn('Call me when you can')).toBeUndefined();
    expect(calledNameIn('我叫小明，你好')).toBeUndefined();
  });

  it('takes the latest request', () => {
    expect(latestCalledName(['叫我阿明就好', '今天好累', '还是叫我明哥吧'])).toBe('明哥');
    expect(latestCalledName(['你好'])).toBeUndefined();
  });
});
