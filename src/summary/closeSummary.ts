// The summary of a session closed by the gap (SPEC §4.4: "session close after the gap triggers
// summary and memory extraction"): like the summarise action, without opening a new session —
// the next message opens one anyway. Every session with something said is summarised, one
// exchange or fifty: the next session carries its summary (thresholds.carry_over_turns).
// Idempotent: a session that already has a summary is skipped.
import { groupByTurn } from '../domain/historyWindow.js';
import { isSaid } from '../domain/conversation.js';
import type { SummaryDeps } from './rollingSummary.js';
import { askSessionSummary, loadSessionMaterial, noteLastTopic, writeSessionMemories } from './summarizeSession.js';

export const MIN_TURNS_FOR_CLOSE_SUMMARY = 1;

export type CloseSummaryResult =
  | { kind: 'skipped'; reason: 'open' | 'has_summary' | 'nothing_said' }
  | { kind: 'summarized'; summary: string; memories: number };

export async function summarizeClosedSession(
  deps: SummaryDeps,
  o: { sessionId: string; now?: Date },
): Promise<CloseSummaryResult> {
  const material = await loadSessionMaterial(deps, o.sessionId);
  const { session } = material;
  if (session.status === 'open') return { kind: 'skipped', reason: 'open' };
  if (session.summary !== undefined) return { kind: 'skipped', reason: 'has_summary' };
  const turns = groupByTurn(material.messages.filter(isSaid)).length;
  if (turns < MIN_TURNS_FOR_CLOSE_SUMMARY) return { kind: 'skipped', reason: 'nothing_said' };

  const now = o.now ?? new Date();
  const out = await askSessionSummary(deps, material);
  const memories = await writeSessionMemories(deps, material, out, now);
  // Written last: a crash before it leaves no summary, so the retry runs again (memories dedupe).
  if (await deps.store.sessions.setSummaryIfAbsent(session, out.summary))
    await noteLastTopic(deps.store, material.dialogue, {
      text: out.summary,
      at: session.endedAt ?? session.lastActivityAt,
    });
  return { kind: 'summarized', summary: out.summary, memories };
}
