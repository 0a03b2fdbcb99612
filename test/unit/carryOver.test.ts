// The time since the previous conversation, as a person says it, and which turns are carried.
import { describe, expect, it } from 'vitest';
import { carryOverIntro, lastTurns, sinceText } from '../../src/context/carryOver.js';
import type { Message } from '../../src/domain/model.js';

const TZ = 'Asia/Shanghai';
// 2026-11-27 16:00 in Shanghai.
const NOW = new Date('2026-11-27T08:00:00Z');
const before = (ms: number) => new Date(NOW.getTime() - ms);
const MIN = 60_000;
const HOUR = 60 * MIN;

describe('sinceText', () => {
  it('says minutes and hours the same day', () => {
    expect(sinceText(before(2 * HOUR + 10 * MIN), NOW, TZ, 'en')).toBe('2 hours 10 minutes ago');
    expect(sinceText(before(2 * HOUR + 10 * MIN), NOW, TZ, 'zh')).toBe('2 小时 10 分钟前');
    expect(sinceText(before(3 * HOUR), NOW, TZ, 'zh')).toBe('3 小时前');
    expect(sinceText(before(45 * MIN), NOW, TZ, 'en')).toBe('45 minutes ago');
    expect(sinceText(before(10_000), NOW, TZ, 'zh')).toBe('刚刚');
  });

  it('says yesterday with the clock time in the display zone', () => {
    // 21:40 the day before, Shanghai time.
    const ended = new Date('2026-11-26T13:40:00Z');
    expect(sinceText(ended, NOW, TZ, 'en')).toBe('yesterday at 21:40');
    expect(sinceText(ended, NOW, TZ, 'zh')).toBe('昨天 21:40');
  });

  it('counts days, with the weekday and date, and the year beyond a week', () => {
    const ended = new Date('2026-11-24T13:40:00Z'); // a Tuesday
    expect(sinceText(ended, NOW, TZ, 'en')).toBe('3 days ago (Tuesday 24 Nov, 21:40)');
    expect(sinceText(ended, NOW, TZ, 'zh')).toBe('3 天前（11月24日 周二 21:40）');
    expect(sinceText(new Date('2026-10-01T02:00:00Z'), NOW, TZ, 'zh')).toBe('57 天前（2026年10月1日 10:00）');
  });
});

describe('carry-over', () => {
  const msg = (id: string, turnId: string, role: 'human' | 'ai', at: number): Message => ({
    _id: id,
    dialogueId: 'd',
    sessionId: 's',
    turnId,
    senderRole: role,
    senderId: role === 'human' ? 'h' : 'a',
    contentType: 'text',
    content: id,
    mentions: [],
    visible: true,
    ...(role === 'ai' ? { delivery: { state: 'complete', platformMessageIds: [] } } : {}),
    createdAt: new Date(at),
    updatedAt: new Date(at),
  });

  it('keeps the last n turns whole, oldest first', () => {
    const all = [1, 2, 3].flatMap((t) => [
      msg(`u${t}`, `t${t}`, 'human', t * 10),
      msg(`a${t}`, `t${t}`, 'ai', t * 10 + 1),
    ]);
    expect(lastTurns(all, 2).map((m) => m._id)).toEqual(['u2', 'a2', 'u3', 'a3']);
    expect(lastTurns(all, 0)).toEqual([]);
  });

  it('names a pause longer than a day, and the summary when there is one', () => {
    const long = carryOverIntro({ endedAt: before(50 * HOUR), messages: [], summary: '聊了看牙医' }, NOW, TZ, 'zh');
    expect(long).toContain('已经超过一天没有聊天了');
    expect(long).toContain('上次对话的概要: 聊了看牙医');
    const short = carryOverIntro({ endedAt: before(2 * HOUR), messages: [] }, NOW, TZ, 'en');
    expect(short).toBe('Your previous conversation ended 2 hours ago.');
  });
});
