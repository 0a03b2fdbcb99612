// Replies being generated in this process, by dialogue, so a /stop arriving through Redis
// pub/sub (from any gateway process) can abort the right stream.
export class ActiveReplies {
  private readonly byDialogue = new Map<string, AbortController>();

  begin(dialogueId: string, controller: AbortController): () => void {
    this.byDialogue.set(dialogueId, controller);
    return () => {
      if (this.byDialogue.get(dialogueId) === controller) this.byDialogue.delete(dialogueId);
    };
  }

  /** True when a reply of that dialogue was running here and has been told to stop. */
  interrupt(dialogueId: string): boolean {
    const c = this.byDialogue.get(dialogueId);
    if (!c || c.signal.aborted) return false;
    c.abort('interrupted');
    return true;
  }
}
