// Budgets before the call (SPEC §14): what a person, a chat and the deployment spent today, and
// whether the next model call may be made. Pure: the caller reads the day's counters by `_id`
// (src/store/spend.ts) and hands them here. A day is a calendar day in DISPLAY_TIMEZONE, so it
// resets at the operator's midnight, as people are told.
import type { ModelPrice } from './configPricing.js';

/** Whose spend a counter holds. `deployment` has one counter a day. */
export type SpendScope = 'person' | 'chat' | 'agent' | 'deployment';

/** Who a model call is spent for: the person whose message caused it, where, by which agent. */
export interface Payer {
  humanId?: string;
  /** The dialogue (a chat, or one thread of it). */
  dialogueId?: string;
  agentId?: string;
}

/** One day's counter of one subject (a document of the `spend` collection). */
export interface SpendDay {
  /** `spendIdOf(day, scope, subjectId)`. */
  _id: string;
  day: string;
  scope: SpendScope;
  subjectId: string;
  tokens: number;
  inputTokens: number;
  outputTokens: number;
  /** In the currency of the config's pricing; 0 when the model has no price. */
  cost: number;
  calls: number;
  updatedAt: Date;
}

export const spendIdOf = (day: string, scope: SpendScope, subjectId: string): string => `${day}:${scope}:${subjectId}`;

/** The counters one call adds to: each scope the payer names, and the deployment's. */
export function spendSubjects(p: Payer): Array<{ scope: SpendScope; subjectId: string }> {
  return [
    ...(p.humanId ? [{ scope: 'person' as const, subjectId: p.humanId }] : []),
    ...(p.dialogueId ? [{ scope: 'chat' as const, subjectId: p.dialogueId }] : []),
    ...(p.agentId ? [{ scope: 'agent' as const, subjectId: p.agentId }] : []),
    { scope: 'deployment', subjectId: 'all' },
  ];
}

const dayParts = (at: Date, timeZone: string) => {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const n = (t: string) => Number(parts.find((p) => p.type === t)?.value);
  return { y: n('year'), m: n('month'), d: n('day'), h: n('hour'), min: n('minute'), s: n('second') };
};

/** `YYYY-MM-DD` of `at` in the time zone. */
export function dayOf(at: Date, timeZone: string): string {
  const { y, m, d } = dayParts(at, timeZone);
  return `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** Milliseconds the zone is ahead of UTC at `at`. */
function offsetAt(at: Date, timeZone: string): number {
  const p = dayParts(at, timeZone);
  return Date.UTC(p.y, p.m - 1, p.d, p.h, p.min, p.s) - Math.floor(at.getTime() / 1000) * 1000;
}

/** The next midnight in the zone after `at`: when today's budgets reset. */
export function nextResetAt(at: Date, timeZone: string): Date {
  const { y, m, d } = dayParts(at, timeZone);
  const wall = Date.UTC(y, m - 1, d + 1);
  // Twice, so a change of offset (summer time) between now and midnight is taken into account.
  let guess = wall - offsetAt(at, timeZone);
  guess = wall - offsetAt(new Date(guess), timeZone);
  return new Date(guess);
}

/** The caps in force for one call; 0 or absent means none. */
export interface Caps {
  personTokens: number;
  chatTokens: number;
  deploymentCost: number;
}

export interface Spent {
  personTokens: number;
  chatTokens: number;
  deploymentCost: number;
}

/** Which cap is reached, first the person's, then the chat's, then the deployment's; null: the call may go. */
export function capReached(caps: Caps, spent: Spent): 'person' | 'chat' | 'deployment' | null {
  if (caps.personTokens > 0 && spent.personTokens >= caps.personTokens) return 'person';
  if (caps.chatTokens > 0 && spent.chatTokens >= caps.chatTokens) return 'chat';
  if (caps.deploymentCost > 0 && spent.deploymentCost >= caps.deploymentCost) return 'deployment';
  return null;
}

/** The person's cap: their own quota when an operator set one, else the deployment's. */
export const personCap = (quota: number | undefined, configured: number): number => quota ?? configured;

/** What a call cost by the config's prices (0 for a model with none). */
export function costOf(
  usage: { inputTokens: number; outputTokens: number },
  model: string,
  pricing: readonly ModelPrice[] | undefined,
): number {
  const price = pricing?.find((p) => p.model === model);
  if (!price) return 0;
  return (usage.inputTokens * price.promptPerMillion + usage.outputTokens * price.completionPerMillion) / 1_000_000;
}
