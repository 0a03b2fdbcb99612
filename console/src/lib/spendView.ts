// The spend panel's arithmetic: days in the deployment's time zone (the budgets' days), a span's
// rows summed per subject, and the name each subject is shown under.
import type { SpendData, SpendRow } from './accessQueries.js';

export type Period = 'today' | '7d' | 'day';
export type Scope = SpendRow['scope'];

/** The calendar day (YYYY-MM-DD) of an instant in a time zone, as the API counts spend. */
export function dayIn(at: Date, timeZone: string): string {
  try {
    return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
  } catch {
    return at.toISOString().slice(0, 10);
  }
}

/** A day n days after (before, when negative) a YYYY-MM-DD day. */
export function addDays(day: string, n: number): string {
  const at = new Date(`${day}T00:00:00Z`);
  at.setUTCDate(at.getUTCDate() + n);
  return at.toISOString().slice(0, 10);
}

/**
 * The days a period spans, and an instant safely before the first one began in any time zone
 * (a day earlier in UTC), from which every chat that spent in the span has been active.
 */
export function spanOf(period: Period, today: string, picked: string) {
  const toDay = period === 'day' && /^\d{4}-\d{2}-\d{2}$/.test(picked) ? picked : today;
  const fromDay = period === '7d' ? addDays(today, -6) : toDay;
  return { fromDay, toDay, activeSince: `${addDays(fromDay, -1)}T00:00:00.000Z` };
}

export interface SpendTotal {
  subjectId: string;
  tokens: number;
  inputTokens: number;
  outputTokens: number;
  cost: number;
  calls: number;
}

/** One scope's rows summed over the span's days, most tokens first. */
export function totalsOf(rows: readonly SpendRow[], scope: Scope): SpendTotal[] {
  const by = new Map<string, SpendTotal>();
  for (const r of rows) {
    if (r.scope !== scope) continue;
    const t = by.get(r.subjectId) ?? {
      subjectId: r.subjectId,
      tokens: 0,
      inputTokens: 0,
      outputTokens: 0,
      cost: 0,
      calls: 0,
    };
    t.tokens += r.tokens;
    t.inputTokens += r.inputTokens;
    t.outputTokens += r.outputTokens;
    t.cost += r.cost;
    t.calls += r.calls;
    by.set(r.subjectId, t);
  }
  return [...by.values()].sort((a, b) => b.tokens - a.tokens || a.subjectId.localeCompare(b.subjectId));
}

export interface Subject {
  name: string | null;
  /** Where to read more of the subject: its dialogue, agent, or memories about the person. */
  href: string;
}

/** Names by id from the request's dialogues (titles, their people) and agents. */
export function namesOf(data: SpendData | undefined) {
  const dialogues = new Map<string, string>();
  const humans = new Map<string, string>();
  const agents = new Map<string, string>();
  for (const e of data?.dialogues.edges ?? []) {
    const d = e.node;
    dialogues.set(d.id, d.title ?? `${d.chat.platform} ${d.chat.chatId}`);
    for (const h of d.humans) humans.set(h.id, h.displayName);
  }
  for (const e of data?.agents.edges ?? []) agents.set(e.node.id, e.node.name);
  return (scope: Scope, id: string): Subject => {
    if (scope === 'CHAT') return { name: dialogues.get(id) ?? null, href: `/dialogues/${encodeURIComponent(id)}` };
    if (scope === 'AGENT') return { name: agents.get(id) ?? null, href: `/setup/agents/${encodeURIComponent(id)}` };
    return { name: humans.get(id) ?? null, href: `/memories?human=${encodeURIComponent(id)}` };
  };
}
