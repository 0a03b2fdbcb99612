// Time in a recall message (pure, English and Chinese): whether it asks "when", which period it
// names ("in May 2023", "on 3 June", "last week", "去年", "2023年5月"), and whether a memory's
// text states a time. Memories carry when they occurred, so a named period selects them by
// date; a "when" question is best answered by a memory that says when.

export interface TimeWindow {
  from: Date;
  to: Date;
}

const DAY_MS = 86_400_000;
/** English month names, January first (the bench's LoCoMo dates read them too). */
export const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
const MONTH = `(${MONTHS.join('|')}|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)\\.?`;
const monthIndex = (name: string): number => MONTHS.findIndex((m) => m.startsWith(name.toLowerCase().slice(0, 3)));

const EN_WHEN = /^\s*(when\b|what (year|month|date|day|time)\b|which (year|month|day)\b|how long ago\b|since when\b)/i;
const ZH_WHEN = /什么时候|啥时候|哪天|哪一天|几号|几月|哪年|哪一年|何时|多久以前/;

/** The message asks when something happened. */
export function asksWhen(text: string): boolean {
  return text.split(/[.?!。？！\n]/).some((s) => EN_WHEN.test(s)) || ZH_WHEN.test(text);
}

// "May" and "March" are also a verb: as months only next to a number or after in/on/last….
const UNAMBIGUOUS_MONTHS = MONTHS.filter((m) => m !== 'may' && m !== 'march').join('|');
const EN_TIME_WORDS = new RegExp(
  `\\b(yesterday|today|tonight|tomorrow|ago|recently|weekend|(last|next|this) (week|month|year|spring|summer|autumn|fall|winter|night|morning|evening)|(mon|tues|wednes|thurs|fri|satur|sun)days?|${UNAMBIGUOUS_MONTHS}|(in|on|since|last|next|this|early|late|mid|of) (may|march)|(may|march) \\d|(19|20)\\d\\d)\\b`,
  'i',
);
const ZH_TIME_WORDS =
  /昨天|前天|今天|明天|后天|上周|下周|这周|本周|上个?月|下个?月|这个月|去年|前年|今年|明年|周末|最近|刚才|星期|礼拜|周[一二三四五六日天]|\d+\s*[年月日号]|[一二三四五六七八九十]+月/;

/** The text says when: a date, a weekday, a month, a year, or a relative time ("last week", "昨天"). */
export function statesTime(text: string): boolean {
  return EN_TIME_WORDS.test(text) || ZH_TIME_WORDS.test(text);
}

/** Slack around a named period: what is said about a day is often said a day or two later. */
const SLACK = { day: [2, 2], month: [3, 7], year: [7, 7] } as const;

function period(start: number, end: number, unit: keyof typeof SLACK): TimeWindow {
  const [before, after] = SLACK[unit];
  return { from: new Date(start - before * DAY_MS), to: new Date(end + after * DAY_MS) };
}

const day = (y: number, m: number, d: number): TimeWindow =>
  period(Date.UTC(y, m, d), Date.UTC(y, m, d + 1) - 1, 'day');
const month = (y: number, m: number): TimeWindow => period(Date.UTC(y, m, 1), Date.UTC(y, m + 1, 1) - 1, 'month');
const year = (y: number): TimeWindow => period(Date.UTC(y, 0, 1), Date.UTC(y + 1, 0, 1) - 1, 'year');

/** The latest year in which this month has begun by `now` ("in May" asked in March means last May). */
const latestYearOf = (m: number, now: Date): number =>
  Date.UTC(now.getUTCFullYear(), m, 1) <= now.getTime() ? now.getUTCFullYear() : now.getUTCFullYear() - 1;

type Rule = { re: RegExp; window: (m: RegExpExecArray, now: Date) => TimeWindow | undefined };

const num = (s: string | undefined): number => Number(s);

// Most specific first: a full date, then a month of a year, a month, a year, relative words.
const RULES: Rule[] = [
  { re: /\b(\d{4})-(\d{1,2})-(\d{1,2})\b/, window: (m) => day(num(m[1]), num(m[2]) - 1, num(m[3])) },
  {
    re: new RegExp(`\\b${MONTH}\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`, 'i'),
    window: (m) => day(num(m[3]), monthIndex(m[1]!), num(m[2])),
  },
  {
    re: new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH},?\\s+(\\d{4})\\b`, 'i'),
    window: (m) => day(num(m[3]), monthIndex(m[2]!), num(m[1])),
  },
  { re: /(\d{4})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*[日号]/, window: (m) => day(num(m[1]), num(m[2]) - 1, num(m[3])) },
  {
    re: /(\d{1,2})\s*月\s*(\d{1,2})\s*[日号]/,
    window: (m, now) => day(latestYearOf(num(m[1]) - 1, now), num(m[1]) - 1, num(m[2])),
  },
  { re: new RegExp(`\\b${MONTH},?\\s+(\\d{4})\\b`, 'i'), window: (m) => month(num(m[2]), monthIndex(m[1]!)) },
  { re: /(\d{4})\s*年\s*(\d{1,2})\s*月/, window: (m) => month(num(m[1]), num(m[2]) - 1) },
  {
    re: new RegExp(`\\b(?:in|during|since|last)\\s+${MONTH}(?!\\s*\\d)`, 'i'),
    window: (m, now) => month(latestYearOf(monthIndex(m[1]!), now), monthIndex(m[1]!)),
  },
  {
    re: /(?<![\d年])(\d{1,2})\s*月份?(?![\d日号])/,
    window: (m, now) => month(latestYearOf(num(m[1]) - 1, now), num(m[1]) - 1),
  },
  { re: /\b(?:in|during|since)\s+((?:19|20)\d\d)\b/i, window: (m) => year(num(m[1])) },
  { re: /((?:19|20)\d\d)\s*年(?!\s*\d)/, window: (m) => year(num(m[1])) },
  { re: /\byesterday\b|昨天/i, window: (_, now) => day(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - 1) },
  {
    re: /\blast week\b|上周|上个?星期/i,
    window: (_, now) => period(now.getTime() - 14 * DAY_MS, now.getTime(), 'day'),
  },
  {
    re: /\blast month\b|上个?月/i,
    window: (_, now) => month(now.getUTCFullYear(), now.getUTCMonth() - 1),
  },
  { re: /\blast year\b|去年/i, window: (_, now) => year(now.getUTCFullYear() - 1) },
];

/** The period the message names, widened by a few days; undefined when it names none. */
export function timeWindow(text: string, now: Date): TimeWindow | undefined {
  for (const rule of RULES) {
    const m = rule.re.exec(text);
    if (!m) continue;
    const w = rule.window(m, now);
    if (w && !Number.isNaN(w.from.getTime()) && !Number.isNaN(w.to.getTime())) return w;
  }
  return undefined;
}
