// Continuity across the session gap: a session opened after the gap carries the end of the
// previous session of the same dialogue — its last turns and, once written, its close summary —
// with the time since it ended said plainly in the person's language, and a note when it was
// more than a day ago (seed 003: a visit after more than 24 h). Pure.
import { isSaid } from '../domain/conversation.js';
import type { Message } from '../domain/model.js';
import type { PromptLanguage } from '../tone/templates.js';
import { groupByTurn } from '../domain/historyWindow.js';
import { localTime } from '../domain/wallClock.js';

export interface CarryOver {
  endedAt: Date;
  /** The previous session's summary, once its close summary is written. */
  summary?: string;
  /** Its last turns, oldest first. */
  messages: Message[];
}

/** A pause longer than this is named as such (seed 003's "long time no see"). */
export const LONG_GAP_MS = 24 * 3_600_000;

/** The messages of the last `turns` turns that were said, oldest first. */
export function lastTurns(messages: readonly Message[], turns: number): Message[] {
  if (turns <= 0) return [];
  const groups = groupByTurn(messages.filter(isSaid));
  return groups.slice(Math.max(0, groups.length - turns)).flat();
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Calendar fields of an instant in a zone, and its day as a number (days since 1970 there). */
function wallClock(at: Date, timeZone: string) {
  const t = localTime(at, timeZone);
  const time = `${String(t.hour).padStart(2, '0')}:${String(t.minute).padStart(2, '0')}`;
  return { ...t, date: t.day, day: Date.UTC(t.year, t.month - 1, t.day) / (24 * HOUR), time };
}

const ZH_WEEKDAYS = ['周日', '周一', '周二', '周三', '周四', '周五', '周六'];
const EN_WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const EN_MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * When the previous conversation ended, relative to now, as a person says it: "2 hours 10
 * minutes ago", "yesterday at 21:40", "3 days ago (Tuesday 24 Nov, 21:40)"; in Chinese "2 小时
 * 10 分钟前", "昨天 21:40", "3 天前（11月24日 周二 21:40）".
 */
export function sinceText(endedAt: Date, now: Date, timeZone: string, lang: PromptLanguage): string {
  const ms = Math.max(0, now.getTime() - endedAt.getTime());
  const then = wallClock(endedAt, timeZone);
  const days = wallClock(now, timeZone).day - then.day;
  const zh = lang === 'zh';
  if (ms < MINUTE) return zh ? '刚刚' : 'just now';
  if (days === 0 || ms < 6 * HOUR) {
    const h = Math.floor(ms / HOUR);
    const m = Math.floor((ms % HOUR) / MINUTE);
    if (zh) return `${h > 0 ? `${h} 小时 ` : ''}${m > 0 || h === 0 ? `${m} 分钟` : ''}前`.replace(/ 前$/, '前');
    const hours = h > 0 ? `${h} hour${h === 1 ? '' : 's'}` : '';
    const minutes = m > 0 || h === 0 ? `${m} minute${m === 1 ? '' : 's'}` : '';
    return `${[hours, minutes].filter(Boolean).join(' ')} ago`;
  }
  if (days === 1) return zh ? `昨天 ${then.time}` : `yesterday at ${then.time}`;
  if (days < 7)
    return zh
      ? `${days} 天前（${then.month}月${then.date}日 ${ZH_WEEKDAYS[then.weekday]} ${then.time}）`
      : `${days} days ago (${EN_WEEKDAYS[then.weekday]} ${then.date} ${EN_MONTHS[then.month - 1]}, ${then.time})`;
  return zh
    ? `${days} 天前（${then.year}年${then.month}月${then.date}日 ${then.time}）`
    : `${days} days ago (${then.date} ${EN_MONTHS[then.month - 1]} ${then.year}, ${then.time})`;
}

/** The lines before the carried turns: when it ended, a long pause named, the summary. */
export function carryOverIntro(c: CarryOver, now: Date, timeZone: string, lang: PromptLanguage): string {
  const since = sinceText(c.endedAt, now, timeZone, lang);
  const long = now.getTime() - c.endedAt.getTime() > LONG_GAP_MS;
  const zh = lang === 'zh';
  const lines = [
    zh ? `你们上一次的对话结束于 ${since}。` : `Your previous conversation ended ${since}.`,
    long
      ? zh
        ? '已经超过一天没有聊天了：像久别重逢一样自然地接上，不要假装刚刚还在聊。'
        : 'More than a day has passed since you last talked: pick up naturally, as after a while apart, not as if you had just been talking.'
      : '',
    c.summary?.trim() ? `${zh ? '上次对话的概要' : 'Summary of it'}: ${c.summary.trim()}` : '',
    c.messages.length > 0 ? (zh ? '上次对话的最后几轮如下。' : 'Its last turns follow.') : '',
  ];
  return lines.filter(Boolean).join('\n');
}

/** The line after the carried turns, so the model knows where today's conversation begins. */
export const carryOverEnd = (lang: PromptLanguage): string =>
  lang === 'zh'
    ? '（以上是上一次的对话；下面是这一次的对话。）'
    : '(End of the previous conversation; the new one follows.)';
