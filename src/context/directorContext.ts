// What the director puts into a turn's context (seed 001, SPEC §5 order): the outline with each
// beat's status and the progress instruction in the stable prefix, and — after `threshold`
// replies without progress — a reminder of the beat the story should be moving toward.
import type { DirectorContext } from './buildContext.js';
import type { Story } from '../store/stories.js';
import { currentBeat, fallbackDue, outlineText, PROGRESS_INSTRUCTION } from '../domain/director.js';

export function directorContext(story: Story, threshold: number): DirectorContext {
  const beat = currentBeat(story.background, story.plot);
  const reminder =
    beat && fallbackDue(story.plot, threshold)
      ? `The story has not moved for ${story.plot.noUpdateCount} replies. It is at beat ${beat.n}: ${beat.text}. ` +
        'Steer the conversation toward it in a natural way, and mark progress when it comes.'
      : undefined;
  return {
    outline: outlineText(story.background, story.plot),
    instruction: PROGRESS_INSTRUCTION,
    ...(reminder ? { fallbackReminder: reminder } : {}),
  };
}
