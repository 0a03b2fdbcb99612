// BR-006 as an operator action: the dialogue and everything under it, deleted while holding the
// dialogue's reply lease so no reply, summary or archive run writes into it meanwhile.
import { GatewayError } from '../errors.js';
import { deleteDialogue, type DialogueDeletion } from '../store/dialogueDeletion.js';
import type { OpsDeps } from './opsDeps.js';

/** A reply holds the lease for up to its generation timeout; an operator waits a little, not that long. */
export const LEASE_WAIT_MS = 10_000;
const RETRY_MS = 200;

export async function deleteDialogueNow(deps: Pick<OpsDeps, 'store' | 'lockDialogue' | 'log'>, dialogueId: string, o: { waitMs?: number } = {}): Promise<DialogueDeletion> {
  if (!(await deps.store.dialogues.get(dialogueId))) throw new GatewayError('CONVERSATION_NOT_FOUND', `no dialogue with id ${dialogueId}`);
  const until = Date.now() + (o.waitMs ?? LEASE_WAIT_MS);
  let release = await deps.lockDialogue(dialogueId);
  while (!release && Date.now() < until) {
    await new Promise((r) => setTimeout(r, RETRY_MS));
    release = await deps.lockDialogue(dialogueId);
  }
  if (!release) throw new GatewayError('DIALOGUE_BUSY', `a reply or summary of dialogue ${dialogueId} is running; try again when it is over`);
  try {
    const r = await deleteDialogue(deps.store.c, dialogueId);
    // Another deletion finished first: to this caller the dialogue was not there.
    if (!r.found) throw new GatewayError('CONVERSATION_NOT_FOUND', `no dialogue with id ${dialogueId}`);
    deps.log.info({ dialogueId, ...r.deleted }, 'dialogue deleted by an operator (BR-006)');
    return r;
  } finally {
    await release();
  }
}
