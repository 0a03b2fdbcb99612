// The chat commands of SPEC §14: `/start CODE` lets a person in by an invite, `/allow` lets a
// group in on the word of someone already let in. Each answers with the notice to show.
import type { Store } from '../store/store.js';
import type { TextKey } from '../i18n/texts.js';

/**
 * `/start` with or without a code. A code is redeemed even by someone let in already (an invite
 * then says welcome, and records nothing new); without one, a person not let in is told how.
 */
export async function runStartCommand(
  store: Pick<Store, 'access'>,
  o: { humanId: string; code: string; admitted: boolean },
  at: Date,
): Promise<TextKey> {
  if (!o.code) return o.admitted ? 'START' : 'ACCESS_NOT_ADMITTED';
  const check = await store.access.redeem(o.code, o.humanId, at);
  if (check.ok) return 'INVITE_ACCEPTED';
  // A person let in who types a stale code is still welcome; only the code is refused.
  return check.code;
}

/** `/allow` in a group: only a person let in on their own standing may let the group in. */
export async function runAllowCommand(
  store: Pick<Store, 'access' | 'participants'>,
  o: { humanId: string; dialogueId: string },
  at: Date,
): Promise<TextKey> {
  const human = await store.participants.getHuman(o.humanId);
  if (human?.access !== 'allowed') return 'GROUP_ALLOW_DENIED';
  await store.access.setChatAccess(o.dialogueId, 'allowed', at);
  return 'GROUP_ALLOWED';
}
