// A session's recent conversation for prompts and the rolling summary, read from its working
// window (one document by `_id`). The record is queried only when the window cannot answer:
// an old session without a window (rebuilt once, on this first touch), or a read reaching
// further back than the window keeps (a long whole-session prompt, a summary far behind).
import type { Logger } from 'pino';
import type { Message, Session, SessionWindow, Turn, WindowEntry } from '../domain/model.js';
import { WINDOW_KEEP, toWindowEntry, windowCovers, windowMessages } from '../domain/windowRules.js';
import type { MessageRepo } from './messages.js';
import type { WindowRepo } from './windows.js';
import { guardKeys, type StateGuard } from './stateGuard.js';

export interface HistoryRead {
  messages: WindowEntry[];
  /** `record`: the window could not answer and the messages collection was queried. */
  source: 'window' | 'record';
}

export class SessionHistory {
  constructor(
    private readonly windows: WindowRepo,
    private readonly messages: MessageRepo,
    private readonly guard: StateGuard,
    private readonly log?: Logger,
  ) {}

  /** The session's window, rebuilt from the record when the session predates windows. */
  async window(session: Pick<Session, '_id' | 'dialogueId'>): Promise<SessionWindow> {
    return (await this.windows.get(session._id)) ?? this.rebuild(session);
  }

  /** Conversation messages created at or after `since` (all when absent), oldest first. */
  async since(
    session: Pick<Session, '_id' | 'dialogueId'>,
    since?: Date,
    window?: SessionWindow,
  ): Promise<HistoryRead> {
    const w = window ?? (await this.window(session));
    if (windowCovers(w, since)) {
      const all = windowMessages(w);
      return { messages: since ? all.filter((m) => m.createdAt.getTime() >= since.getTime()) : all, source: 'window' };
    }
    this.log?.info(
      { sessionId: session._id, trimmedBefore: w.trimmedBefore, since },
      'history reaches past the working window; reading the record',
    );
    return { messages: await this.messages.inSessionSince(session._id, since), source: 'record' };
  }

  /**
   * A turn's conversation messages (its human messages and its reply), from its session's
   * window; from the record when the window no longer holds them. A window that still holds
   * its whole session is the answer even when it has none (a room agent's skip is invisible).
   */
  async ofTurn(turn: Pick<Turn, '_id' | 'sessionId' | 'dialogueId'>): Promise<Array<Message | WindowEntry>> {
    const w = await this.window({ _id: turn.sessionId, dialogueId: turn.dialogueId });
    const own = windowMessages(w).filter((m) => m.turnId === turn._id);
    return own.length > 0 || windowCovers(w) ? own : this.messages.ofTurn(turn._id);
  }

  /** A seeded session's predecessor messages (copied into the window when it was opened). */
  async seed(session: Pick<Session, '_id' | 'seed'>, window: SessionWindow): Promise<WindowEntry[]> {
    if (!session.seed?.messageIds.length) return [];
    if (window.seed) return window.seed;
    return (await this.messages.getMany(session.seed.messageIds)).map(toWindowEntry); // sessions seeded before windows
  }

  private rebuild(session: Pick<Session, '_id' | 'dialogueId'>): Promise<SessionWindow> {
    return this.guard.run(guardKeys.dialogue(session.dialogueId), async () => {
      const again = await this.windows.get(session._id);
      if (again) return again;
      const all: Message[] = await this.messages.inSessionSince(session._id);
      const kept = all.slice(-WINDOW_KEEP);
      const first = kept[0];
      const w: SessionWindow = {
        _id: session._id,
        dialogueId: session.dialogueId,
        entries: Object.fromEntries(kept.map((m) => [m._id, toWindowEntry(m)])),
        ...(all.length > kept.length && first ? { trimmedBefore: first.createdAt } : {}),
        updatedAt: new Date(),
      };
      this.log?.info(
        { sessionId: session._id, messages: kept.length },
        'working window rebuilt from the record (first touch)',
      );
      return this.windows.insertRebuilt(w);
    });
  }
}
