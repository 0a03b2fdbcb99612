import { describe, expect, it } from 'vitest';
import { asksWhen, statesTime, timeWindow } from '../../src/memory/timeCues.js';

const now = new Date('2023-10-20T12:00:00Z');
const day = (iso: string): number => new Date(`${iso}T00:00:00Z`).getTime();
const DAY = 86_400_000;

describe('asksWhen', () => {
  it('recognises when-questions in English and Chinese', () => {
    expect(asksWhen('When did Melanie run a charity race?')).toBe(true);
    expect(asksWhen('Nice! What year did you move?')).toBe(true);
    expect(asksWhen('我什么时候去的日本？')).toBe(true);
    expect(asksWhen('你还记得我哪天生日吗')).toBe(true);
  });
  it('does not take "remember when" or other questions for one', () => {
    expect(asksWhen('Do you remember when I went to Paris?')).toBe(false);
    expect(asksWhen('Where do I live?')).toBe(false);
    expect(asksWhen('我住在哪里？')).toBe(false);
  });
});

describe('statesTime', () => {
  it('sees dates, weekdays, months, years and relative times', () => {
    expect(statesTime('I went to a support group yesterday')).toBe(true);
    expect(statesTime('Ran a charity race last Saturday')).toBe(true);
    expect(statesTime('Moved to Paris in 2019')).toBe(true);
    expect(statesTime('We met in May 2022')).toBe(true);
    expect(statesTime('用户上周去了杭州')).toBe(true);
    expect(statesTime('用户2019年搬到上海')).toBe(true);
  });
  it('does not take the verbs "may" and "march" for months', () => {
    expect(statesTime('User may adopt a cat')).toBe(false);
    expect(statesTime('They march for rights')).toBe(false);
    expect(statesTime('User likes sushi')).toBe(false);
    expect(statesTime('用户喜欢吃火锅')).toBe(false);
  });
});

describe('timeWindow', () => {
  it('a full date: that day, a couple of days either side', () => {
    for (const q of [
      'What did Gina find on 1 February, 2023?',
      'Who did Maria have dinner with on February 1, 2023?',
    ]) {
      const w = timeWindow(q, now)!;
      expect(w.from.getTime()).toBe(day('2023-01-30'));
      expect(w.to.getTime()).toBe(day('2023-02-04') - 1);
    }
    expect(timeWindow('我2023年2月1日做了什么', now)?.from.getTime()).toBe(day('2023-01-30'));
  });

  it('a month of a year, and a bare month as the latest one begun by now', () => {
    const w = timeWindow('What did Maria donate in December 2022?', now)!;
    expect(w.from.getTime()).toBe(day('2022-12-01') - 3 * DAY);
    expect(w.to.getTime()).toBe(day('2023-01-01') - 1 + 7 * DAY);
    // Asked in October 2023: "in November" is last November, "in May" this May.
    expect(timeWindow('Which spot did Joanna visit in November?', now)?.from.getUTCFullYear()).toBe(2022);
    expect(timeWindow('Which spot did Joanna visit in May?', now)?.from.getTime()).toBe(day('2023-05-01') - 3 * DAY);
    expect(timeWindow('我5月去了哪里', now)?.from.getTime()).toBe(day('2023-05-01') - 3 * DAY);
  });

  it('a year, and relative periods against now', () => {
    expect(timeWindow('How many times did I go to the beach in 2022?', now)?.from.getTime()).toBe(
      day('2022-01-01') - 7 * DAY,
    );
    expect(timeWindow('What did I do yesterday?', now)?.from.getTime()).toBe(day('2023-10-19') - 2 * DAY);
    expect(timeWindow('我去年去了哪里', now)?.to.getTime()).toBe(day('2023-01-01') - 1 + 7 * DAY);
    expect(timeWindow('What happened last month?', now)?.from.getTime()).toBe(day('2023-09-01') - 3 * DAY);
  });

  it('no period named: no window ("may" the verb included)', () => {
    expect(timeWindow('Where do I live?', now)).toBeUndefined();
    expect(timeWindow('I may go hiking', now)).toBeUndefined();
    expect(timeWindow('我住在哪里', now)).toBeUndefined();
  });
});
