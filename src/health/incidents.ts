// The incidents feed (pure): model errors and timeouts from failed llm_call events, delivery
// failures from delivery events, degraded recall from context builds, rooms' budget stops from
// floor events, moderation events (SPEC §14), and turns that closed unanswered, newest first,
// each naming its turn so the console can link to the trace.
import type { EventLog, Turn } from '../domain/model.js';
import type { Incident } from './health.js';

/** The head of an event an incident is made from: what the incident names and links to. */
type IncidentEvent = Pick<EventLog, '_id' | 'at' | 'dialogueId' | 'turnId' | 'data'>;

/** An incident from an event names the event, its time, dialogue and turn (the console links to the trace). */
const eventIncident = (e: IncidentEvent, kind: Incident['kind'], message: string): Incident => ({
  id: e._id,
  kind,
  at: e.at,
  dialogueId: e.dialogueId,
  turnId: e.turnId ?? null,
  message,
});

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);

/** A model failure is a timeout when its code or message says so (LlmFailure's codes are stable). */
const isTimeout = (code: string | undefined, message: string) =>
  (code !== undefined && /TIMEOUT/i.test(code)) || /timed out|timeout/i.test(message);

export function callIncident(e: IncidentEvent): Incident | null {
  const message = str(e.data.error);
  if (!message) return null;
  const code = str(e.data.errorCode);
  const task = str(e.data.task);
  return eventIncident(
    e,
    isTimeout(code, message) ? 'model_timeout' : 'model_error',
    `${task ? `${task}: ` : ''}${code ? `${code}: ` : ''}${message}`,
  );
}

export function deliveryIncident(e: IncidentEvent): Incident | null {
  if (e.data.ok !== false) return null;
  const platform = str(e.data.platform) ?? 'platform';
  return eventIncident(e, 'delivery_failure', `${platform}: ${str(e.data.error) ?? 'delivery failed'}`);
}

const rec = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' ? (v as Record<string, unknown>) : {});

export function degradedRecallIncident(e: IncidentEvent): Incident | null {
  const memory = str(rec(e.data.recall).degraded);
  const knowledge = str(rec(e.data.knowledge).degraded);
  if (!memory && !knowledge) return null;
  const parts = [memory && `memory recall ${memory}`, knowledge && `knowledge search ${knowledge}`];
  return eventIncident(e, 'degraded_recall', parts.filter(Boolean).join('; '));
}

export function budgetStopIncident(e: IncidentEvent): Incident {
  const why = str(e.data.why) ?? 'budget';
  const tokens = typeof e.data.tokens === 'number' ? `, ${e.data.tokens} tokens spent` : '';
  return eventIncident(e, 'room_budget_stop', `the agents' own rounds stopped: ${why} budget used up${tokens}`);
}

/** SPEC §14: what moderation did (or could not do) to a message or a reply; the text is in the trace. */
export function moderationIncident(e: IncidentEvent): Incident {
  const what = e.data.direction === 'out' ? 'reply' : 'incoming message';
  const categories = Array.isArray(e.data.categories) ? e.data.categories.filter((c) => typeof c === 'string') : [];
  const by =
    e.data.by === 'keyword'
      ? `keyword "${str(e.data.matched) ?? ''}"`
      : `endpoint${categories.length ? `: ${categories.join(', ')}` : ''}`;
  if (e.data.flagged !== true)
    return eventIncident(
      e,
      'moderation',
      `moderation endpoint failed (${str(e.data.endpointFailed) ?? 'unknown error'}): the ${what} passed unchecked by it`,
    );
  const done = e.data.direction === 'out' ? 'withheld, a notice shown instead' : 'not sent to the model';
  return eventIncident(e, 'moderation', `${what} flagged by ${by}: ${done}`);
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
