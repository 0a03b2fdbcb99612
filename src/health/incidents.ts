// The incidents feed (pure): model errors and timeouts from failed llm_call events, delivery
// failures from delivery events, degraded recall from context builds, rooms' budget stops from
// floor events, and turns that closed unanswered, newest first, each naming its turn so the
// console can link to the trace.
import type { EventLog, Turn } from '../domain/model.js';
import type { Incident } from './health.js';

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);

/** A model failure is a timeout when its code or message says so (LlmFailure's codes are stable). */
const isTimeout = (code: string | undefined, message: string) =>
  (code !== undefined && /TIMEOUT/i.test(code)) || /timed out|timeout/i.test(message);

export function callIncident(e: Pick<EventLog, '_id' | 'at' | 'dialogueId' | 'turnId' | 'data'>): Incident | null {
  const message = str(e.data.error);
  if (!message) return null;
  const code = str(e.data.errorCode);
  const task = str(e.data.task);
  return {
    id: e._id,
    kind: isTimeout(code, message) ? 'model_timeout' : 'model_error',
    at: e.at,
    dialogueId: e.dialogueId,
    turnId: e.turnId ?? null,
    message: `${task ? `${task}: ` : ''}${code ? `${code}: ` : ''}${message}`,
  };
}

export function deliveryIncident(e: Pick<EventLog, '_id' | 'at' | 'dialogueId' | 'turnId' | 'data'>): Incident | null {
  if (e.data.ok !== false) return null;
  const platform = str(e.data.platform) ?? 'platform';
  return {
    id: e._id,
    kind: 'delivery_failure',
    at: e.at,
    dialogueId: e.dialogueId,
    turnId: e.turnId ?? null,
    message: `${platform}: ${str(e.data.error) ?? 'delivery failed'}`,
  };
}

const rec = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' ? (v as Record<string, unknown>) : {});

export function degradedRecallIncident(
  e: Pick<EventLog, '_id' | 'at' | 'dialogueId' | 'turnId' | 'data'>,
): Incident | null {
  const memory = str(rec(e.data.recall).degraded);
  const knowledge = str(rec(e.data.knowledge).degraded);
  if (!memory && !knowledge) return null;
  const parts = [memory && `memory recall ${memory}`, knowledge && `knowledge search ${knowledge}`];
  return {
    id: e._id,
    kind: 'degraded_recall',
    at: e.at,
    dialogueId: e.dialogueId,
    turnId: e.turnId ?? null,
    message: parts.filter(Boolean).join('; '),
  };
}

export function budgetStopIncident(e: Pick<EventLog, '_id' | 'at' | 'dialogueId' | 'turnId' | 'data'>): Incident {
  const why = str(e.data.why) ?? 'budget';
  const tokens = typeof e.data.tokens === 'number' ? `, ${e.data.tokens} tokens spent` : '';
  return {
    id: e._id,
    kind: 'room_budget_stop',
    at: e.at,
    dialogueId: e.dialogueId,
    turnId: e.turnId ?? null,
    message: `the agents' own rounds stopped: ${why} budget used up${tokens}`,
  };
}

export function unansweredIncident(t: Pick<Turn, '_id' | 'dialogueId' | 'startedAt' | 'closedAt'>): Incident {
  return {
    id: t._id,
    kind: 'unanswered',
    at: t.closedAt ?? t.startedAt,
    dialogueId: t.dialogueId,
    turnId: t._id,
    message: 'the turn closed without a reply',
  };
}

export function mergeIncidents(lists: ReadonlyArray<ReadonlyArray<Incident | null>>, max: number): Incident[] {
  return lists
    .flat()
    .filter((i): i is Incident => i !== null)
    .sort((a, b) => b.at.getTime() - a.at.getTime() || a.id.localeCompare(b.id))
    .slice(0, max);
}
