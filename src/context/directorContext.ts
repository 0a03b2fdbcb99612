// What the director puts into a turn's context (seed 001, SPEC §5 order): the outline with each
// beat's status and the progress instruction in the stable prefix, and — after `threshold`
// replies without progress — a reminder of the beat the story should be moving toward, with the
// story so far and other storylines' handling of that beat (src/context/storyFallback.ts).
import type { DirectorContext } from './buildContext.js';
import type { Story } from '../store/stories.js';
import type { RecallPlace } from '../domain/memoryOrigin.js';
import type { ContextDeps } from './contextReads.js';
import { currentBeat, fallbackDue, outlineText, PROGRESS_INSTRUCTION, reminderText } from '../domain/director.js';
import { gatherFallback, type FallbackEvidence } from './storyFallback.js';

export interface DirectedContext {
  director: DirectorContext;
  /** The reminder's beat and sources, when it was due (the trace records them). */
  fallback?: FallbackEvidence & { beat: number };
}

export async function directorContext(
  deps: Pick<ContextDeps, 'store' | 'recall' | 'log'>,
  o: {
    story: Story;
    threshold: number;
    dialogueId: string;
    agentId: string;
    humanId?: string;
    place: RecallPlace;
    now: Date;
  },
): Promise<DirectedContext> {
  const { story } = o;
  const director = { outline: outlineText(story.background, story.plot), instruction: PROGRESS_INSTRUCTION };
  const beat = currentBeat(story.background, story.plot);
  if (!beat || !fallbackDue(story.plot, o.threshold)) return { director };
  // The evidence is an aid: reading it failing leaves the reminder bare, never the reply.
  const evidence = await gatherFallback(deps, { ...o, beat }).catch((err: unknown) => {
    deps.log.warn({ err, dialogueId: o.dialogueId }, 'director fallback: evidence not read');
    return { happened: [], elsewhere: [], sources: { messageIds: [], memoryIds: [], dialogueIds: [] } };
  });
  return {
    director: { ...director, fallbackReminder: reminderText(beat, story.plot.noUpdateCount, evidence) },
    fallback: { ...evidence, beat: beat.n },
  };
}
