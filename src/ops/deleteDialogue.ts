// BR-006 as an operator action: the dialogue and everything under it, deleted while holding the
// dialogue's reply lease so no reply, summary or archive run writes into it meanwhile.
// The memories learnt in it are deleted too; every process's warm memory index holds them until
// their scopes' versions move, so those are bumped afterwards.
import { GatewayError } from '../errors.js';
import type { DialogueDeletion } from '../store/dialogueDeletion.js';
import type { MemoryScope } from '../memory/versions.js';
import type { OpsDeps } from './opsDeps.js';

/** A reply holds the lease for up to its generation timeout; an operator waits a little, not that long. */
export const LEASE_WAIT_MS = 10_000;
const RETRY_MS = 200;

export async function deleteDialogueNow(
  deps: Pick<OpsDeps, 'store' | 'replyLease' | 'log' | 'memoryVersions'>,
  dialogueId: string,
  o: { waitMs?: number } = {},
): Promise<DialogueDeletion> {
  if (!(await deps.store.dialogues.get(dialogueId)))
    throw new GatewayError('CONVERSATION_NOT_FOUND', `no dialogue with id ${dialogueId}`);
  const until = Date.now() + (o.waitMs ?? LEASE_WAIT_MS);
  let release = await deps.replyLease.acquire(dialogueId);
  while (!release && Date.now() < until) {
    await new Promise((r) => setTimeout(r, RETRY_MS));
    release = await deps.replyLease.acquire(dialogueId);
  }
  if (!release)
    throw new GatewayError(
      'DIALOGUE_BUSY',
      `a reply or summary of dialogue ${dialogueId} is running; try again when it is over`,
    );
  try {
    // Read before deleting: afterwards nothing tells whose memories they were.
    const scopes = await deps.store.memories.scopesOfDialogue(dialogueId);
    const r = await deps.store.dialogues.deleteWithContents(dialogueId);
    await deps.store.memories.forgetSnapshots(scopes);
    await noteMemoriesDeleted(deps, scopes);
    // Another deletion finished first: to this caller the dialogue was not there.
    if (!r.found) throw new GatewayError('CONVERSATION_NOT_FOUND', `no dialogue with id ${dialogueId}`);
    deps.log.info({ dialogueId, ...r.deleted }, 'dialogue deleted by an operator (BR-006)');
    return r;
  } finally {
    await release();
  }
}

/** The deletion is done either way: a version that could not be bumped is logged, not thrown. */
async function noteMemoriesDeleted(
  deps: Pick<OpsDeps, 'log' | 'memoryVersions'>,
  scopes: MemoryScope[],
): Promise<void> {
  const versions = deps.memoryVersions;
  if (!versions || scopes.length === 0) return;
  const failed = (await Promise.allSettled(scopes.map((s) => versions.bump(s)))).flatMap((res, i) =>
    res.status === 'rejected' ? [{ scope: scopes[i], err: res.reason as unknown }] : [],
  );
  if (failed.length > 0)
    deps.log.error(
      { failed },
      'memory versions not bumped after a dialogue deletion: warm indexes may recall deleted memories until their next change',
    );
}
