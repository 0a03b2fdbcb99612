// The summarise action (seed 001 汇总, SPEC §9): the model reads the whole session and writes a
// summary, plot points and details; they become memories (summary and plot entries), the session
// closes as `summarized`, and a new session opens seeded with the summary and the last N turns
// (in the configured order), as the dialogue's current session.
// Order of writes, so a retry after a crash converges: memories (deduplicated) → successor
// (derived id, opened once) → the dialogue moves to it (only from this session) → this session
// is marked summarized. A session already marked returns its successor without asking the model.
import type { Dialogue, MemoryEmbedding, MemoryEntry, Message, Session } from '../domain/model.js';
import { toWindowEntry } from '../domain/windowRules.js';
import { GatewayError } from '../errors.js';
import { groupByTurn } from '../domain/historyWindow.js';
import { runJsonTask } from '../llm/jsonTask.js';
import { routeData } from '../llm/route.js';
import { embedTexts } from '../memory/similar.js';
import { clampMemoryText, dedupeKeyOf } from '../memory/normalize.js';
import type { OwnerScope } from '../store/memories.js';
import { successorIdOf } from '../store/sessions.js';
import { isSaid } from '../domain/conversation.js';
import { isPrivateChat, originOf } from '../domain/memoryOrigin.js';
import type { Store } from '../store/store.js';
import {
  SUMMARIZE_SESSION_INSTRUCTIONS,
  fitTranscript,
  renderSummarizeSessionInput,
  summarizeSessionOutputSchema,
  transcriptOf,
  type SessionSummaryOutput,
} from './summaryPrompts.js';
import { renderOptionsFor, type SummaryDeps } from './rollingSummary.js';

export interface SummarizeDeps extends SummaryDeps {
  /** Schedules the idle check of the new session (jobs/timers.ts); absent in tests. */
  scheduleIdleCheck?: (sessionId: string, lastActivityAt: Date) => Promise<void>;
}

export interface SummarizeResult {
  summary: string;
  /** The seeded successor; null when the dialogue had already moved to another session. */
  newSessionId: string | null;
  /** Memory entries written or found already stored by this run (0 when it was summarised before). */
  memories: number;
  alreadySummarized: boolean;
}

const TASK = 'summarize_session';
/** The transcript sent to the model; a longer session keeps its newest messages (and the rolling summary). */
export const SESSION_INPUT_MAX_CHARS = 60_000;
export const SUMMARY_IMPORTANCE = 0.6;
export const PLOT_IMPORTANCE = 0.4;

export interface SessionMaterial {
  session: Session;
  dialogue: Dialogue;
  messages: Message[];
}

export async function loadSessionMaterial(deps: SummaryDeps, sessionId: string): Promise<SessionMaterial> {
  const session = await deps.store.sessions.get(sessionId);
  if (!session) throw new GatewayError('NOT_FOUND', `session ${sessionId} not found`);
  const dialogue = await deps.store.dialogues.get(session.dialogueId);
  if (!dialogue) throw new GatewayError('CONVERSATION_NOT_FOUND', `dialogue ${session.dialogueId} not found`);
  const messages = await deps.store.messages.inSessionSince(session._id);
  return { session, dialogue, messages };
}

/** One `summarize_session` call over the session (and its rolling summary). Throws on LLM failure. */
export async function askSessionSummary(deps: SummaryDeps, m: SessionMaterial): Promise<SessionSummaryOutput> {
  const lines = transcriptOf(m.messages, await renderOptionsFor(deps.store, m.dialogue, m.messages));
  const { text, omitted } = fitTranscript(lines, SESSION_INPUT_MAX_CHARS);
  const endedAt = m.session.endedAt ?? m.session.lastActivityAt;
  const input = renderSummarizeSessionInput({
    startedAt: m.session.startedAt,
    endedAt,
    ...(m.session.rollingSummary ? { earlierSummary: m.session.rollingSummary.text } : {}),
    transcript: text,
  });
  const r = await runJsonTask(deps.llm, {
    task: TASK,
    model: deps.model,
    instructions: SUMMARIZE_SESSION_INSTRUCTIONS,
    input,
    schema: summarizeSessionOutputSchema,
    timeoutMs: deps.timeoutMs,
  });
  await deps.store.events
    .record({
      kind: 'llm_call',
      dialogueId: m.dialogue._id,
      sessionId: m.session._id,
      data: {
        task: TASK,
        model: deps.model,
        durationMs: r.durationMs,
        messages: lines.length,
        omitted,
        plotPoints: r.value.plotPoints.length,
        details: r.value.details.length,
        ...(r.usage ? { usage: r.usage } : {}),
        ...routeData(r),
      },
    })
    .catch((err: unknown) => deps.log.warn({ err }, 'recording the session summary call failed'));
  return r.value;
}

/** Who remembers the session: each of the dialogue's agents, about its human when there is exactly one. */
export function memoryScopesOf(dialogue: Pick<Dialogue, 'agentIds' | 'humanIds'>): OwnerScope[] {
  const subjectId = dialogue.humanIds.length === 1 ? dialogue.humanIds[0] : undefined;
  return dialogue.agentIds.map((ownerId) => ({ ownerId, ...(subjectId !== undefined ? { subjectId } : {}) }));
}

/** The entries a summary becomes: the overall summary and each plot point (summary), each detail (plot). */
export function summaryMemoryTexts(
  out: SessionSummaryOutput,
  maxChars: number,
): Array<{ kind: 'summary' | 'plot'; text: string; importance: number }> {
  const seen = new Set<string>();
  const entries: Array<{ kind: 'summary' | 'plot'; text: string; importance: number }> = [];
  const add = (kind: 'summary' | 'plot', raw: string, importance: number): void => {
    const text = clampMemoryText(raw, maxChars);
    const key = dedupeKeyOf('', undefined, text);
    if (text.length === 0 || seen.has(key)) return;
    seen.add(key);
    entries.push({ kind, text, importance });
  };
  add('summary', out.summary, SUMMARY_IMPORTANCE);
  for (const p of out.plotPoints) add('summary', p, SUMMARY_IMPORTANCE);
  for (const d of out.details) add('plot', d, PLOT_IMPORTANCE);
  return entries;
}

/** Writes the summary's memories for every scope; exact duplicates (a retry) are found, not stored again. */
export async function writeSessionMemories(
  deps: SummaryDeps,
  m: SessionMaterial,
  out: SessionSummaryOutput,
  now: Date,
): Promise<number> {
  const config = await deps.config();
  const texts = summaryMemoryTexts(out, config.limits.memory_max_chars);
  const scopes = memoryScopesOf(m.dialogue);
  if (texts.length === 0 || scopes.length === 0) return 0;
  let vectors: MemoryEmbedding[] | undefined;
  try {
    vectors = await embedTexts(
      deps.embedder,
      texts.map((t) => t.text),
    );
  } catch (err) {
    // Stored without a vector: the index embeds entries that lack one when it loads them.
    deps.log.warn({ err, sessionId: m.session._id }, 'embedding summary memories failed; stored without vectors');
  }
  const occurredAt = m.session.endedAt ?? m.session.lastActivityAt;
  const origin = originOf(m.dialogue);
  let count = 0;
  for (const scope of scopes) {
    const written: string[] = [];
    for (const [i, t] of texts.entries()) {
      const embedding = vectors?.[i];
      const entry: Omit<MemoryEntry, '_id'> = {
        ownerId: scope.ownerId,
        ...(scope.subjectId !== undefined ? { subjectId: scope.subjectId } : {}),
        kind: t.kind,
        text: t.text,
        dedupeKey: dedupeKeyOf(scope.ownerId, scope.subjectId, t.text, origin),
        ...(embedding ? { embedding } : {}),
        importance: t.importance,
        sources: { dialogueId: m.dialogue._id, sessionId: m.session._id },
        origin,
        occurredAt,
        status: 'active',
        recall: { count: 0 },
        createdAt: now,
        updatedAt: now,
      };
      written.push((await deps.store.memories.insertOnce(entry)).entry._id);
      count++;
    }
    await deps.cache.noteWritten(scope, written);
  }
  return count;
}

/** The ids of the last `n` turns' messages a new session shows raw: human and usable AI messages. */
export function lastTurnsMessageIds(messages: readonly Message[], n: number): string[] {
  const groups = groupByTurn(messages.filter(isSaid));
  return groups
    .slice(Math.max(0, groups.length - n))
    .flat()
    .map((m) => m._id);
}

/** `material`: the session as the caller already loaded it (skips a second read of its messages). */
export async function summarizeSession(
  deps: SummarizeDeps,
  o: { sessionId: string; now: Date; by?: string; material?: SessionMaterial },
): Promise<SummarizeResult> {
  const { store } = deps;
  const material = o.material ?? (await loadSessionMaterial(deps, o.sessionId));
  const { session, dialogue } = material;

  if (session.closeReason === 'summarized' && session.summary !== undefined) {
    const successor = await store.sessions.get(successorIdOf(session._id));
    return { summary: session.summary, newSessionId: successor?._id ?? null, memories: 0, alreadySummarized: true };
  }

  // A run that crashed after opening the successor already wrote the memories: its seed holds the
  // summary, so the rerun finishes with it instead of asking the model for a different one.
  const successorId = successorIdOf(session._id);
  const opened = await store.sessions.get(successorId);
  let summary: string;
  let memories = 0;
  if (opened?.seed) summary = opened.seed.summary;
  else {
    const out = await askSessionSummary(deps, material);
    memories = await writeSessionMemories(deps, material, out, o.now);
    summary = out.summary;
  }

  const config = await deps.config();
  // Open a successor only for the session the dialogue is on (or already moved to its successor
  // by a run that crashed before marking this one); an older one is just summarised.
  const current =
    dialogue.currentSessionId === undefined ||
    dialogue.currentSessionId === session._id ||
    dialogue.currentSessionId === successorId;
  let newSessionId: string | null = null;
  if (current) {
    const seedIds = lastTurnsMessageIds(material.messages, config.thresholds.summary_last_n_turns);
    const seed = { fromSessionId: session._id, summary, messageIds: seedIds, order: config.preferences.summary_order };
    const byId = new Map(material.messages.map((m) => [m._id, m]));
    const seedMessages = seedIds.flatMap((id) => {
      const m = byId.get(id);
      return m ? [toWindowEntry(m)] : [];
    });
    const successor = await store.sessions.openSeeded(dialogue._id, seed, o.now, seedMessages);
    const adopted = await store.dialogues.adoptSuccessor(dialogue._id, session._id, successor._id, o.now);
    if (adopted || (await store.dialogues.get(dialogue._id))?.currentSessionId === successor._id) {
      newSessionId = successor._id;
      await deps.scheduleIdleCheck?.(successor._id, o.now);
    } else {
      // Ingest opened a session meanwhile: the successor would never be used, so it ends at once.
      await store.sessions.close(successor, 'manual', o.now);
      deps.log.info(
        { sessionId: session._id },
        'the dialogue moved to another session while summarising; successor not adopted',
      );
    }
  }
  await store.sessions.markSummarized(session, summary, o.now);
  await noteLastTopic(store, dialogue, { text: summary, at: session.endedAt ?? o.now });
  deps.log.info({ sessionId: session._id, newSessionId, memories, by: o.by }, 'session summarised');
  return { summary, newSessionId, memories, alreadySummarized: false };
}

/**
 * The summary becomes the person's "last topic" on their persona card — only a private chat's:
 * a group's summary holds other people's words (SPEC §13).
 */
export async function noteLastTopic(
  store: Pick<Store, 'participants'>,
  dialogue: Pick<Dialogue, '_id' | 'type' | 'roomId' | 'humanIds' | 'agentIds'>,
  topic: { text: string; at: Date },
): Promise<void> {
  if (!isPrivateChat(dialogue)) return;
  const origin = originOf(dialogue);
  await Promise.all(
    dialogue.humanIds.map((h) => store.participants.noteTopic(h, dialogue.agentIds, { ...topic, origin })),
  );
}
