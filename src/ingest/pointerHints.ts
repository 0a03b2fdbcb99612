// What this process last saw of a dialogue's pointers (its current session and latest turn), so
// the next message of the chat reads those documents beside the dialogue instead of after it.
// Only a hint: ingest uses what it read only when the dialogue's own pointers (read at the same
// time, under the dialogue's guard) still name it, and reads again otherwise.
export interface DialoguePointers {
  sessionId: string;
  /** null: the dialogue has no turn yet. */
  openTurnId: string | null;
}

export class PointerHints {
  private readonly hints = new Map<string, DialoguePointers>();

  /** `capacity`: chats remembered; the least recently placed are forgotten first. */
  constructor(private readonly capacity = 10_000) {}

  get(dialogueId: string): DialoguePointers | undefined {
    return this.hints.get(dialogueId);
  }

  set(dialogueId: string, pointers: DialoguePointers): void {
    this.hints.delete(dialogueId); // re-inserted: a Map iterates oldest first
    this.hints.set(dialogueId, pointers);
    if (this.hints.size > this.capacity) this.hints.delete(this.hints.keys().next().value as string);
  }
}
