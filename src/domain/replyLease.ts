// One reply in progress per dialogue (SPEC §4.2), as the core sees it: the lease a reply holds
// while it runs (jobs/replyLease.ts keeps it in Redis across worker processes). One name for what
// the worker takes, what deleting a dialogue waits for and what an incoming /stop asks about.
export interface ReplyLease {
  /** A release function, or null while another reply of this dialogue holds the lease. */
  acquire(dialogueId: string): Promise<(() => Promise<void>) | null>;
  /** Whether someone holds the dialogue's lease right now. */
  isHeld(dialogueId: string): Promise<boolean>;
}
