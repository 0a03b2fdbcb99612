// Moderation in the record (SPEC §14): a flagged message or reply, or a check the endpoint could
// not make, is an event of kind `moderation` in its dialogue — the verdict and the text itself,
// for operators (the console's trace and incidents); the person is never shown it.
import type { ModerationVerdict } from '../domain/moderation.js';
import type { EventRepo } from '../store/events.js';
import type { ModerationDirection } from './moderator.js';

/** The `moderation` event's data: which way, the verdict, and the text that was checked. */
export function moderationEventData(
  direction: ModerationDirection,
  verdict: ModerationVerdict,
  text: string,
): Record<string, unknown> {
  return {
    direction,
    flagged: verdict.flagged,
    by: verdict.by ?? null,
    matched: verdict.matched ?? null,
    categories: verdict.categories ?? [],
    endpointFailed: verdict.endpointFailed ?? null,
    // For operators only: what was withheld or refused (a reply's text is stored nowhere else).
    text,
  };
}

/** A check worth recording: something was flagged, or the endpoint failed and the text passed unchecked. */
export const isNoteworthy = (v: ModerationVerdict): boolean => v.flagged || v.endpointFailed !== undefined;

/**
 * Records what moderation said of a person's message (for ingest: a flagged message is refused,
 * an unchecked one answered). Does nothing for a clean check; returns the event's id otherwise.
 */
export async function recordInboundModeration(
  events: Pick<EventRepo, 'record'>,
  o: {
    dialogueId: string;
    sessionId?: string;
    turnId?: string;
    messageId: string;
    verdict: ModerationVerdict;
    text: string;
    at?: Date;
  },
): Promise<string | undefined> {
  if (!isNoteworthy(o.verdict)) return undefined;
  return events.record({
    kind: 'moderation',
    dialogueId: o.dialogueId,
    ...(o.sessionId ? { sessionId: o.sessionId } : {}),
    ...(o.turnId ? { turnId: o.turnId } : {}),
    messageId: o.messageId,
    data: moderationEventData('in', o.verdict, o.text),
    ...(o.at ? { at: o.at } : {}),
  });
}

/** Why a reply was withheld, for its stored error (never its text). */
export function withheldReason(v: ModerationVerdict): string {
  if (v.by === 'keyword') return `moderation withheld the reply: keyword "${v.matched ?? ''}"`;
  const categories = v.categories?.length ? `: ${v.categories.join(', ')}` : '';
  return `moderation withheld the reply (endpoint${categories})`;
}
