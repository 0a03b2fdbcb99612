// What the memory jobs do (jobs/memoryJobs.ts only wires the queue): per-turn extraction and
// rolling summary, the summarise action with its notices, summaries of idle-closed sessions,
// persona evolution and consolidation. Also the post-turn hook that schedules them.
import type { Turn } from '../domain/model.js';
import type { Logger } from '../log.js';
import type { Store } from '../store/store.js';
import type { Outbounds } from '../delivery/outbound.js';
import { text, type Locale } from '../i18n/texts.js';
import { GatewayError } from '../errors.js';
import { sendNotice } from '../delivery/notice.js';
import { groupByTurn } from '../domain/historyWindow.js';
import { extractTurnMemories, type MemoryWriteDeps, type TurnFacts } from '../memory/extraction.js';
import { spendingFor } from '../budget/payer.js';
import { consolidateAll } from '../memory/consolidation.js';
import { updateRollingSummary } from '../summary/rollingSummary.js';
import { loadSessionMaterial, summarizeSession, type SummarizeDeps } from '../summary/summarizeSession.js';
import { summarizeClosedSession } from '../summary/closeSummary.js';
import { isSaid } from '../domain/conversation.js';
import { evolvePersona, shouldEvolve } from '../persona/evolvePersona.js';
import { turnAgentId } from '../domain/turnRules.js';
import type { ReplyLease } from '../domain/replyLease.js';

export interface NoticeTarget {
  messageId: string;
  dialogueId: string;
  sessionId: string;
  locale: Locale;
  replyTo?: string;
}

export interface MemoryWorkDeps extends MemoryWriteDeps, SummarizeDeps {
  store: Store;
  outbounds: Outbounds;
  log: Logger;
  /** One reply or summary per dialogue at a time (jobs/replyLease.ts); null → busy. */
  replyLease: Pick<ReplyLease, 'acquire'>;
}

/** Where post-turn work goes (jobs/memoryJobs.ts MemoryQueue). */
/** The memory queue as the core sees it (jobs/memoryJobs.ts implements it). */
export interface MemoryScheduler {
  /** `fold`: also queue the rolling summary (only when the session's raw history passed the threshold). */
  afterTurn(turnId: string, sessionId: string, o?: { fold?: boolean; facts?: TurnFacts }): Promise<void>;
  evolve(agentId: string, at: Date): Promise<void>;
  /** A session summary on request (`/summary`, the API) or when the session went idle. */
  summarize(sessionId: string, reason: 'command' | 'api' | 'idle', notify?: NoticeTarget): Promise<void>;
}

export function memoryJobHandlers(deps: MemoryWorkDeps) {
  return {
    // A person's extraction is their share of the turn's cost (SPEC §14): spent for them and the chat.
    extract: (turnId: string, facts?: TurnFacts) =>
      spendingFor(facts ? { humanId: facts.subjectId, dialogueId: facts.dialogueId, agentId: facts.ownerId } : {}, () =>
        extractTurnMemories(deps, { turnId, ...(facts ? { facts } : {}) }),
      ),
    rollingSummary: (sessionId: string) => updateRollingSummary(deps, { sessionId, now: new Date() }),
    evolve: (agentId: string) => evolvePersona(deps, { agentId, now: new Date() }),
    consolidate: (scope: { ownerId?: string; subjectId?: string }) => consolidateAll(deps, scope),
    summarize: (sessionId: string, reason: 'command' | 'api' | 'idle', notify?: NoticeTarget) =>
      reason === 'idle'
        ? summarizeClosedSession(deps, { sessionId })
        : summarizeOnRequest(deps, sessionId, reason, notify),
  };
}

/**
 * The summarise action (seed 001) under the dialogue's lock, so no reply reads the session
 * while it is closed and its successor seeded. A requester hears how it went; a failure is told
 * once and not retried (they can ask again), while 'busy' is retried by the queue.
 */
async function summarizeOnRequest(
  deps: MemoryWorkDeps,
  sessionId: string,
  reason: 'command' | 'api',
  notify?: NoticeTarget,
): Promise<unknown> {
  const session = await deps.store.sessions.get(sessionId);
  if (!session) throw new GatewayError('NOT_FOUND', `session ${sessionId} not found`);
  const release = await deps.replyLease.acquire(session.dialogueId);
  if (!release) return 'busy';
  // Read under the lock, so no reply adds to the session while it is summarised.
  const material = await loadSessionMaterial(deps, sessionId).catch(async (err: unknown) => {
    await release();
    throw err;
  });
  const tell = async (
    key: 'SUMMARY_DONE' | 'SUMMARY_NOTHING' | 'SUMMARY_FAILED',
    vars: Record<string, string> = {},
  ) => {
    if (!notify) return;
    const r = {
      messageId: notify.messageId,
      dialogueId: notify.dialogueId,
      sessionId: notify.sessionId,
      chat: material.dialogue.chat,
    };
    await sendNotice(deps, r, text(key, notify.locale, vars), key, notify.replyTo, 'summary-result');
  };
  try {
    const usable = groupByTurn(material.messages.filter(isSaid)).length;
    if (usable === 0 && material.session.closeReason !== 'summarized') {
      await tell('SUMMARY_NOTHING');
      return { kind: 'nothing' };
    }
    try {
      const r = await summarizeSession(deps, { sessionId, now: new Date(), by: reason, material });
      await tell('SUMMARY_DONE', { summary: r.summary });
      return r;
    } catch (err) {
      deps.log.warn({ err, sessionId }, 'summary failed');
      await tell('SUMMARY_FAILED');
      if (!notify) throw err; // nobody to tell: let the queue retry
      return { kind: 'failed' };
    }
  } finally {
    await release();
  }
}

/** Post-turn hook: memories and rolling summary of the turn, and persona evolution every N replies. */
export async function scheduleAfterReply(
  deps: { store: Store; scheduler: MemoryScheduler },
  turn: Pick<Turn, '_id' | 'sessionId' | 'initiatorRole' | 'initiatorId' | 'responderRole' | 'responderId'>,
  at: Date,
  after: { foldDue?: boolean; evolveEveryTurns?: number; facts?: TurnFacts } = {},
): Promise<void> {
  await deps.scheduler.afterTurn(turn._id, turn.sessionId, {
    fold: after.foldDue ?? true,
    ...(after.facts ? { facts: after.facts } : {}),
  });
  const agentId = turnAgentId(turn);
  if (!agentId) return;
  const [replies, everyTurns] = await Promise.all([
    deps.store.participants.noteReplyForEvolve(agentId, at, turn._id),
    after.evolveEveryTurns ?? deps.store.config.get().then((c) => c.config.thresholds.persona_evolve_every_turns),
  ]);
  if (shouldEvolve(replies, everyTurns)) await deps.scheduler.evolve(agentId, at);
}
