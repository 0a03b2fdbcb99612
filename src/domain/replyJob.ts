// A turn to answer, as queued. The hints are what ingest knew when it placed the turn; the reply
// reads them beside the turn instead of after it, and checks them against it.

/** The turn's session and parties as placed (each is verified against the turn once read). */
export interface ReplyHints {
  sessionId: string;
  /** A new turn's agent and human (a message joining a turn names only the session). */
  agentId?: string;
  humanId?: string;
}

/** What stops a reply from outside: the user's /stop, or a room's answer deadline for one ask. */
export type Interrupt = { reason: 'interrupted' } | { reason: 'deadline'; turnId: string };

/** `delayMs`: not before then (an album's other items join first). */
export interface ReplyJob {
  turnId: string;
  dialogueId: string;
  hints?: ReplyHints;
  delayMs?: number;
}
