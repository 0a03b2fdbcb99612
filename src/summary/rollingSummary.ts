// The rolling summary job (SPEC §5, seed 003): once a session's raw part holds more than
// `summary_threshold_turns` turns, all but the last `recent_turns` are folded into the session's
// summary, so the prompt carries summary + recent raw messages instead of the whole session.
// Runs after a reply, off the critical path. The write is conditional on the summary's previous
// boundary, so a retried or concurrent run never folds the same messages twice; an LLM failure
// throws (the job retries) and writes nothing.
import type { Dialogue, Message, Session } from '../domain/model.js';
import type { RenderOptions } from '../transcript/renderMessage.js';
import { turnsToFold } from '../domain/historyWindow.js';
import { runJsonTask } from '../llm/jsonTask.js';
import { routeData } from '../llm/route.js';
import type { MemoryTaskDeps } from '../memory/taskDeps.js';
import type { Store } from '../store/store.js';
import {
  ROLLING_SUMMARY_INSTRUCTIONS,
  renderRollingSummaryInput,
  rollingSummaryOutputSchema,
  transcriptOf,
} from './summaryPrompts.js';

/** What the summary jobs need (the memory worker builds one). */
export type SummaryDeps = MemoryTaskDeps;

export type RollingSummaryResult =
  | {
      kind: 'skipped';
      reason: 'load_all' | 'no_session' | 'closed' | 'below_threshold' | 'nothing_usable' | 'moved_meanwhile';
    }
  | { kind: 'folded'; turns: number; messages: number; coversUntil: Date; turnsFolded: number };

const TASK = 'rolling_summary';

/**
 * How the summary model reads this dialogue's messages, from no agent's viewpoint: every agent
 * that spoke in `messages` or belongs to the dialogue named by id (display names from the store),
 * so a room's summary keeps who said what.
 */
export async function renderOptionsFor(
  store: Store,
  dialogue: Dialogue | null,
  messages: readonly Pick<Message, 'senderRole' | 'senderId'>[] = [],
): Promise<RenderOptions> {
  const ids = [
    ...new Set([
      ...(dialogue?.agentIds ?? []),
      ...messages.filter((m) => m.senderRole === 'ai').map((m) => m.senderId),
    ]),
  ];
  const agents = await Promise.all(ids.map((id) => store.participants.getAgent(id)));
  const agentNames = Object.fromEntries(agents.flatMap((a) => (a ? [[a._id, a.name] as const] : [])));
  return {
    groupChat: dialogue?.type === 'group' || dialogue?.type === 'lio_group',
    agentName: agents.find((a) => a !== null)?.name ?? 'the assistant',
    agentNames,
  };
}

export async function updateRollingSummary(
  deps: SummaryDeps,
  o: { sessionId: string; now: Date },
): Promise<RollingSummaryResult> {
  const { store } = deps;
  const config = await deps.config();
  // Whole-session mode (seed 001) shows every message; nothing is folded.
  if (config.preferences.conversation_load_all) return { kind: 'skipped', reason: 'load_all' };
  const session = await store.sessions.get(o.sessionId);
  if (!session) return { kind: 'skipped', reason: 'no_session' };
  // A closed session builds no more prompts; its closing summary covers it.
  if (session.status === 'closed') return { kind: 'skipped', reason: 'closed' };

  const previous = session.rollingSummary;
  const { messages } = await store.history.since(session, previous?.coversUntil);
  const plan = turnsToFold(messages, {
    thresholdTurns: config.thresholds.summary_threshold_turns,
    keepTurns: config.thresholds.recent_turns,
    ...(previous ? { coversUntil: previous.coversUntil } : {}),
  });
  if (!plan) return { kind: 'skipped', reason: 'below_threshold' };

  const dialogue = await store.dialogues.get(session.dialogueId);
  const lines = transcriptOf(plan.fold, await renderOptionsFor(store, dialogue, plan.fold));
  const text = lines.length > 0 ? await foldIntoSummary(deps, session, previous?.text, lines) : previous?.text;
  // Only failed replies and notices in the folded part: move the boundary, keep the text.
  if (text === undefined) return { kind: 'skipped', reason: 'nothing_usable' };

  const next = {
    text,
    coversUntil: plan.coversUntil,
    turnsFolded: (previous?.turnsFolded ?? 0) + plan.turns,
    updatedAt: o.now,
  };
  const stored = await store.sessions.setRollingSummary(session, next, previous?.coversUntil);
  if (!stored) {
    deps.log.info({ sessionId: session._id }, 'rolling summary moved meanwhile; this run is dropped');
    return { kind: 'skipped', reason: 'moved_meanwhile' };
  }
  return {
    kind: 'folded',
    turns: plan.turns,
    messages: plan.fold.length,
    coversUntil: plan.coversUntil,
    turnsFolded: next.turnsFolded,
  };
}

async function foldIntoSummary(
  deps: SummaryDeps,
  session: Session,
  previous: string | undefined,
  lines: ReturnType<typeof transcriptOf>,
): Promise<string> {
  const input = renderRollingSummaryInput({ ...(previous ? { previous } : {}), lines });
  const r = await runJsonTask(deps.llm, {
    task: TASK,
    model: deps.model,
    instructions: ROLLING_SUMMARY_INSTRUCTIONS,
    input,
    schema: rollingSummaryOutputSchema,
    timeoutMs: deps.timeoutMs,
  });
  await deps.store.events
    .record({
      kind: 'llm_call',
      dialogueId: session.dialogueId,
      sessionId: session._id,
      data: {
        task: TASK,
        model: deps.model,
        durationMs: r.durationMs,
        messages: lines.length,
        ...(r.usage ? { usage: r.usage } : {}),
        ...routeData(r),
      },
    })
    .catch((err: unknown) => deps.log.warn({ err }, 'recording the rolling summary call failed'));
  return r.value.summary;
}
