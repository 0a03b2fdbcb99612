// The one way into generation. SPEC §4.2: one AI message in progress per dialogue. Every AI
// message — the answer to a turn, a proactive check-in (and later a room's turn or a web
// reply) — is produced here, under the dialogue's reply lease; a caller that finds the lease
// held is told `busy` and tries again later (the queues delay their job).
import { respondToTurn, type RespondResult } from './respondToTurn.js';
import type { ReplyHints } from '../domain/replyJob.js';
import type { ReplyLease } from '../domain/replyLease.js';
import { proactiveCheckIn, type CheckInDeps, type CheckInResult } from './checkIn.js';

export type GenerateDeps = CheckInDeps & {
  replyLease: Pick<ReplyLease, 'acquire'>;
  /** Queues a room's next ask (after the lease is released, so it does not find it busy). */
  enqueueReply(job: { turnId: string; dialogueId: string }): Promise<void>;
};

export type Generation =
  | { kind: 'answer'; dialogueId: string; turnId: string; hints?: ReplyHints }
  | { kind: 'check-in'; dialogueId: string; since: Date; now: Date };

export type Generated =
  { kind: 'busy' } | { kind: 'answer'; result: RespondResult } | { kind: 'check-in'; result: CheckInResult };

export async function generate(deps: GenerateDeps, g: Generation): Promise<Generated> {
  const release = await deps.replyLease.acquire(g.dialogueId);
  if (!release) return { kind: 'busy' };
  let done: Generated;
  try {
    done =
      g.kind === 'answer'
        ? { kind: 'answer', result: await respondToTurn(deps, g.turnId, g.dialogueId, g.hints) }
        : { kind: 'check-in', result: await proactiveCheckIn(deps, g.dialogueId, g.since, g.now) };
  } finally {
    await release();
  }
  // A room's next speaker: asked now that the floor is free.
  if (done.kind === 'answer' && done.result.kind === 'replied' && done.result.nextAsk)
    await deps.enqueueReply(done.result.nextAsk);
  return done;
}
