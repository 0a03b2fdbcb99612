// After a reply in a directed dialogue (seed 001): its `[PROGRESS:n:status]` markers move the plot,
// each step citing the reply and the messages it answered; a reply that moved nothing counts one
// more turn without progress. Decided under the dialogue's state guard (an operator may have
// moved a beat meanwhile), written by `_id`, and recorded in the turn's trace.
import { directReply } from '../domain/director.js';
import type { Store } from '../store/store.js';
import type { Story } from '../store/stories.js';
import { guardKeys } from '../store/stateGuard.js';
import type { TurnTrace } from '../trace/turnTrace.js';

export async function directAfterReply(
  store: Store,
  o: {
    dialogueId: string;
    story: Story;
    /** What the model said, markers included (the record keeps them). */
    text: string;
    replyId: string;
    inputIds: string[];
    at: Date;
    trace: TurnTrace;
    fallbackThreshold: number;
  },
): Promise<void> {
  const { background } = o.story;
  const r = await store.guard.run(guardKeys.dialogue(o.dialogueId), async () => {
    const plot = (await store.stories.getPlot(o.dialogueId, background._id)) ?? o.story.plot;
    const out = directReply(plot, background, { text: o.text, at: o.at, messageIds: [o.replyId, ...o.inputIds] });
    await store.stories.savePlot(out.plot);
    return out;
  });
  await o.trace.record('director', {
    backgroundId: background._id,
    applied: r.applied,
    refused: r.refused,
    noUpdateCount: r.plot.noUpdateCount,
    fallbackDueNext: r.plot.noUpdateCount >= o.fallbackThreshold,
  });
}
