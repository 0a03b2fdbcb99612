// A turn's recorded steps on one time axis, in ms from the turn's start. Events are stored when
// a step ends (`at`); a model call or tool call started `durationMs` earlier. The context build
// ended when the first model call began and took `gatherMs`; recall ran inside it (its total
// time is recorded, not its offset). A delivery has no duration: it is an instant.
import type { EventView } from './types.js';
import { contextBuild, delivery, llmCall, toolCall, type LlmCall } from './trace.js';

export type StepKind = 'context' | 'recall' | 'llm' | 'tool' | 'delivery';

export interface Step {
  id: string;
  kind: StepKind;
  /** ms from the turn's start. */
  start: number;
  end: number;
  name: string;
  round: number | null;
  ok: boolean;
  /** Model calls: time to the first token, from the call's start. */
  ttftMs: number | null;
  call: LlmCall | null;
}

const ORDER: Record<StepKind, number> = { context: 0, recall: 1, llm: 2, tool: 3, delivery: 4 };

const ms = (iso: string): number => new Date(iso).getTime();

export function timelineSteps(
  turnStartedAt: string,
  events: readonly EventView[],
  llmIds: ReadonlySet<string>,
  toolIds: ReadonlySet<string>,
): Step[] {
  const t0 = ms(turnStartedAt);
  const steps: Step[] = [];
  const calls = events.filter((e) => llmIds.has(e.id));
  const callStart = (e: EventView): number => ms(e.at) - (llmCall(e).durationMs ?? 0) - t0;
  for (const e of events) {
    const end = ms(e.at) - t0;
    if (e.kind === 'context_built') {
      const c = contextBuild(e);
      // Stored once the model had the request, so its `at` is a little after the build's end.
      const next = calls.find((x) => ms(x.at) >= ms(e.at));
      const built = next ? Math.min(end, callStart(next)) : end;
      const start = built - (c.gatherMs ?? 0);
      steps.push({ ...base(e.id, 'context', start, built), name: c.model ?? '' });
      if (c.recall?.totalMs !== null && c.recall?.totalMs !== undefined)
        steps.push(base(`${e.id}:recall`, 'recall', start, start + c.recall.totalMs));
    } else if (llmIds.has(e.id)) {
      const c = llmCall(e);
      const start = end - (c.durationMs ?? 0);
      steps.push({
        ...base(e.id, 'llm', start, end),
        name: c.model ?? '',
        round: c.round,
        ok: !c.error,
        ttftMs: c.ttftMs,
        call: c,
      });
    } else if (toolIds.has(e.id)) {
      const c = toolCall(e);
      steps.push({ ...base(e.id, 'tool', end - (c.durationMs ?? 0), end), name: c.name, round: c.round, ok: c.ok });
    } else if (e.kind === 'delivery') {
      const d = delivery(e);
      steps.push({ ...base(e.id, 'delivery', end, end), name: d.platform ?? '', ok: d.ok || d.skipped });
    }
  }
  // Steps starting together keep the order of the work: recall is part of the context build.
  return steps.sort((a, b) => a.start - b.start || ORDER[a.kind] - ORDER[b.kind] || a.end - b.end);
}

function base(id: string, kind: StepKind, start: number, end: number): Step {
  return { id, kind, start, end, name: '', round: null, ok: true, ttftMs: null, call: null };
}

/** The axis: from the turn's start (or the earliest step, should a clock skew put one before it) to the last end. */
export function axisOf(steps: readonly Step[], closedAfterMs: number | null): { from: number; to: number } {
  const from = Math.min(0, ...steps.map((s) => s.start));
  const to = Math.max(closedAfterMs ?? 0, ...steps.map((s) => s.end), from + 1);
  return { from, to };
}
