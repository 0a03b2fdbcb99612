// The sources a finished reply cited (seed 004 FR-005): exactly the valid [n] of its text, recorded
// on the message; on channels that do not show sources themselves (Telegram, Discord: no
// `sourcesAsEvents` on their descriptor) what people see ends with short footnotes. A skipped,
// empty or failed reply cites nothing visible, so it gets no footnotes.
import type { DeliveryState, SourceReference } from '../domain/model.js';
import { citedSources, sourceFootnotes, type NumberedSource } from '../domain/citations.js';

interface Ended {
  state: Exclude<DeliveryState, 'streaming'>;
  stored: string;
  shown: string;
  skipped?: true;
}

export function withCitedSources<T extends Ended>(
  outcome: T,
  o: { retrieved: readonly NumberedSource[]; footnotes: boolean },
): T & { sources?: SourceReference[] } {
  if (o.retrieved.length === 0 || outcome.skipped || outcome.state === 'empty') return outcome;
  const sources = citedSources(outcome.stored, o.retrieved);
  if (sources.length === 0) return outcome;
  const noted = o.footnotes && (outcome.state === 'complete' || outcome.state === 'interrupted');
  return { ...outcome, sources, ...(noted ? { shown: outcome.shown + sourceFootnotes(sources) } : {}) };
}
