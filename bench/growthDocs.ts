// Padded documents, each a clone of what the template turn stored (growthTemplates.ts) with the
// ids the app would derive (dialogueIdOf, humanIdOf, messageIdOf, replyIdOf, newId) and times
// from the layout. Only what must differ per copy is set by hand: texts and their search keys,
// platform message ids (unique per chat), counters, and the state old sessions are in.
import { createHash } from 'node:crypto';
import type {
  Dialogue,
  EventLog,
  Human,
  MemoryEntry,
  Message,
  Session,
  SessionWindow,
  Turn,
} from '../src/domain/model.js';
import { toWindowEntry } from '../src/domain/windowRules.js';
import { outboxIdOf, type OutboxEntry } from '../src/store/outbox.js';
import { memoryScopeIdOf, type MemoryScopeMark } from '../src/store/memoryScopes.js';
import { dialogueIdOf } from '../src/store/dialogues.js';
import { humanIdOf } from '../src/store/participants.js';
import { messageIdOf } from '../src/ingest/messageIds.js';
import { replyIdOf } from '../src/domain/aiMessage.js';
import { newId } from '../src/domain/ids.js';
import { titleFromFirstMessage } from '../src/domain/title.js';
import { benchMessage } from './context.js';
import { memoryText } from './recall.js';
import { cloneDoc } from './growthClone.js';
import { SESSION_GAP_MS, TURNS_PER_MEMORY, TURNS_PER_SESSION, type PadLayout } from './growthLayout.js';
import type { TurnTemplates } from './growthTemplates.js';

const REPLIES_EN = [
  'That sounds like it matters a lot to you. Tell me what part of it feels heaviest right now, and we can take it one step at a time together.',
  'I remember you mentioned this before. It makes sense that you keep coming back to it; what would a good outcome look like for you this week?',
  'Thank you for telling me. You handled a hard day better than you think. Do you want to talk it through, or would a small distraction help more tonight?',
];
const REPLIES_ZH = [
  '听起来这件事对你真的很重要。现在最让你放不下的是哪一部分？我们可以一点一点慢慢来，我一直在这里陪着你。',
  '我记得你之前也提到过这个。会一直想着它很正常，你希望这周最好的结果是什么样的呢？',
  '谢谢你愿意跟我说这些。你今天其实已经做得很好了。想再聊聊，还是想先轻松一下？',
];

/** The human text of padded turn k: 15–45 words, English and Chinese alternating (the context part's generator). */
export const humanText = (k: number): string => benchMessage(k + 1);
const replyText = (k: number): string => ((k + 1) % 2 === 0 ? REPLIES_EN : REPLIES_ZH)[k % 3]!;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A context_built prompt for turn k: the template's, with the user's message replaced and (after
 * a session's first turn) the previous exchange before it, as the history a real prompt carries.
 */
function promptFor(prompt: unknown, current: string, previous: [string, string] | undefined): unknown {
  if (!Array.isArray(prompt)) return prompt;
  const parts = prompt as unknown[];
  const last = parts.findLastIndex((m) => isRecord(m) && m.role === 'user');
  if (last < 0) return prompt;
  const history = previous
    ? [
        { role: 'user', content: previous[0] },
        { role: 'assistant', content: previous[1] },
      ]
    : [];
  return [
    ...parts.slice(0, last),
    ...history,
    { ...(parts[last] as Record<string, unknown>), content: current },
    ...parts.slice(last + 1),
  ];
}

export interface TurnDocs {
  turn: Turn;
  messages: Message[];
  events: EventLog[];
  /** The memory of this turn's run of TURNS_PER_MEMORY turns, on the run's first turn. */
  memory?: MemoryEntry;
}

export class PadDocs {
  private readonly chat: Dialogue['chat'];

  constructor(
    private readonly t: TurnTemplates,
    private readonly layout: PadLayout,
  ) {
    this.chat = t.dialogue.chat;
  }

  private dialogueId = (d: number) => dialogueIdOf({ ...this.chat, chatId: this.layout.chatId(d) });
  private humanId = (d: number) => humanIdOf({ platform: this.chat.platform, userId: this.layout.chatId(d) });

  /** Template id → padded id for everything around turn k (chat, human, session, messages, memory). */
  private idsFor(k: number): Map<string, string> {
    const L = this.layout;
    const s = L.sessionOf(k);
    const d = L.dialogueOf(s);
    const n = L.turnInChat(k);
    const turnId = L.turnId(k);
    return new Map([
      [this.chat.chatId, L.chatId(d)],
      [this.t.dialogue._id, this.dialogueId(d)],
      [this.t.human._id, this.humanId(d)],
      [this.t.session._id, L.sessionId(s)],
      [this.t.turn._id, turnId],
      [this.t.humanMessage._id, messageIdOf({ platform: this.chat.platform, chatId: L.chatId(d) }, String(2 * n + 1))],
      [this.t.aiMessage._id, replyIdOf(turnId)],
      [this.t.memory._id, L.memoryId(k)],
    ]);
  }

  turn(k: number): TurnDocs {
    const L = this.layout;
    const ids = this.idsFor(k);
    const shift = L.turnStart(k) - this.t.turn.startedAt.getTime();
    const n = L.turnInChat(k);
    const text = humanText(k);
    const reply = replyText(k);

    const human = cloneDoc(this.t.humanMessage, ids, shift);
    human.content = text;
    // Telegram numbers a private chat's messages in one sequence: the user's, then the bot's.
    if (human.platformRef) human.platformRef = { ...human.platformRef, messageId: String(2 * n + 1) };
    const ai = cloneDoc(this.t.aiMessage, ids, shift);
    ai.content = reply;
    if (ai.delivery) ai.delivery = { ...ai.delivery, platformMessageIds: [String(2 * n + 2)] };

    const previous: [string, string] | undefined =
      L.indexInSession(k) > 0 ? [humanText(k - 1), replyText(k - 1)] : undefined;
    for (const e of this.t.events) ids.set(e._id, newId('evt', new Date(e.at.getTime() + shift)));
    const events = this.t.events.map((e) => {
      const copy = cloneDoc(e, ids, shift);
      if (copy.kind === 'context_built')
        copy.data = { ...copy.data, prompt: promptFor(copy.data.prompt, text, previous) };
      return copy;
    });
    return {
      turn: cloneDoc(this.t.turn, ids, shift),
      messages: [human, ai],
      events,
      ...(k % TURNS_PER_MEMORY === 0 ? { memory: this.memory(k, ids, shift) } : {}),
    };
  }

  private memory(k: number, ids: ReadonlyMap<string, string>, shift: number): MemoryEntry {
    const m = Math.floor(k / TURNS_PER_MEMORY);
    const { kind, text } = memoryText(m);
    const copy = cloneDoc(this.t.memory, ids, shift);
    // Unique per entry, in the app's format (40 hex characters), even where generated texts repeat.
    const dedupeKey = createHash('sha256').update(`growth-pad\u0000${m}`).digest('hex').slice(0, 40);
    return { ...copy, kind, text, dedupeKey };
  }

  /** Session s's working window: its messages (a padded session holds fewer than the window keeps). */
  window(s: number, messages: readonly Message[]): SessionWindow {
    const last = messages.at(-1);
    return {
      _id: this.layout.sessionId(s),
      dialogueId: this.dialogueId(this.layout.dialogueOf(s)),
      entries: Object.fromEntries(messages.map((m) => [m._id, toWindowEntry(m)])),
      updatedAt: last?.updatedAt ?? new Date(this.layout.sessionStart(s)),
    };
  }

  /** The outbox entries of turn k's messages' platform ids (in its chat). */
  outboxOf(k: number, messages: readonly Message[]): OutboxEntry[] {
    const chat = { ...this.chat, chatId: this.layout.chatId(this.layout.dialogueOf(this.layout.sessionOf(k))) };
    return messages.flatMap((m) =>
      (m.delivery?.platformMessageIds ?? []).map((id) => ({
        _id: outboxIdOf(chat, id),
        messageId: m._id,
        dialogueId: m.dialogueId,
      })),
    );
  }

  /** Every padded human's memory scope (and the agent's owner-wide one) is marked, as the app marks them. */
  memoryScopeMarks(): MemoryScopeMark[] {
    const owner = this.t.memory.ownerId;
    const since = new Date(this.layout.sessionStart(0));
    const humans = Array.from({ length: this.layout.dialogues }, (_, d) => this.humanId(d));
    return [
      { _id: memoryScopeIdOf({ ownerId: owner }), ownerId: owner, since },
      ...humans.map((h) => ({
        _id: memoryScopeIdOf({ ownerId: owner, subjectId: h }),
        ownerId: owner,
        subjectId: h,
        since,
      })),
    ];
  }

  /** When a turn starting at `start` was closed, by the template turn's own duration. */
  private closedAfter(start: number): Date {
    const t = this.t.turn;
    return new Date(start + ((t.closedAt ?? t.startedAt).getTime() - t.startedAt.getTime()));
  }

  /** Session s, closed by the idle timer an hour after its last turn, with its closing summary. */
  session(s: number): Session {
    const L = this.layout;
    const first = s * TURNS_PER_SESSION;
    const turns = L.turnsInSession(s);
    const last = this.closedAfter(L.turnStart(first + turns - 1));
    const copy = cloneDoc(this.t.session, this.idsFor(first), L.sessionStart(s) - this.t.session.startedAt.getTime());
    return {
      ...copy,
      status: 'closed',
      lastActivityAt: last,
      endedAt: new Date(last.getTime() + SESSION_GAP_MS),
      closeReason: 'timeout',
      summary: `They talked about ${humanText(first).slice(0, 80)}; the user felt heard and said they would come back to it.`,
      stats: { ...copy.stats, messageCount: 2 * turns, turnCount: turns },
    };
  }

  /** Chat d's dialogue (pointing at its latest session, as the app leaves it) and its human. */
  dialogueAndHuman(d: number): { dialogue: Dialogue; human: Human } {
    const L = this.layout;
    const sessions = L.sessionsOf(d);
    const firstTurn = sessions[0]! * TURNS_PER_SESSION;
    const latest = sessions.at(-1)!;
    const turns = sessions.reduce((a, s) => a + L.turnsInSession(s), 0);
    const ids = this.idsFor(latest * TURNS_PER_SESSION);
    const start = L.turnStart(firstTurn);
    const lastActivity = this.closedAfter(L.turnStart(latest * TURNS_PER_SESSION + L.turnsInSession(latest) - 1));
    const dialogue = cloneDoc(this.t.dialogue, ids, start - this.t.dialogue.createdAt.getTime());
    const human = cloneDoc(this.t.human, ids, start - this.t.human.createdAt.getTime());
    return {
      dialogue: {
        ...dialogue,
        messageCount: 2 * turns,
        lastActivityAt: lastActivity,
        updatedAt: lastActivity,
        ...(dialogue.title !== undefined ? { title: titleFromFirstMessage(humanText(firstTurn)) } : {}),
      },
      human: { ...human, updatedAt: lastActivity },
    };
  }
}
