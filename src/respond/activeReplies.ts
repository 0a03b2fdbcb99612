// Replies being generated in this process, by dialogue, so a /stop or a room's answer deadline
// arriving through Redis pub/sub (from any process) can abort the right stream.
import type { Interrupt } from '../domain/replyJob.js';

export class ActiveReplies {
  private readonly byDialogue = new Map<string, { controller: AbortController; turnId: string }>();

  begin(dialogueId: string, turnId: string, controller: AbortController): () => void {
    const entry = { controller, turnId };
    this.byDialogue.set(dialogueId, entry);
    return () => {
      if (this.byDialogue.get(dialogueId) === entry) this.byDialogue.delete(dialogueId);
    };
  }

  /** True when a reply of that dialogue (of that turn, for a deadline) was running here and has been told to stop. */
  interrupt(dialogueId: string, why: Interrupt = { reason: 'interrupted' }): boolean {
    const active = this.byDialogue.get(dialogueId);
    if (!active || active.controller.signal.aborted) return false;
    if (why.reason === 'deadline' && active.turnId !== why.turnId) return false;
    active.controller.abort(why.reason);
    return true;
  }
}
