// BR-006 for a person (SPEC §13): everything learned only from them goes, with them. Their
// identities linked to them (SPEC §12) count as the same person. In order:
// - their private chats (one person, one agent: `isPrivateChat`), each through the dialogue
//   deletion (deleteDialogue.ts: under the reply lease, its memories with it);
// - their messages in the chats they share with others (groups, rooms), marked deleted as a
//   platform delete marks them: kept for the record, left out of every later context;
// - every memory about them, whatever its status, under each scope's guard, the scopes'
//   versions bumped with the ids so every process's warm index drops them;
// - the agents' relationship notes on them;
// - sentences naming them in every agent's persona texts (evolved, its history, a held one);
// - last their records, so a call that stopped halfway (DIALOGUE_BUSY) can simply be repeated.
import { GatewayError, isGatewayError } from '../errors.js';
import type { Human } from '../domain/model.js';
import { isPrivateChat } from '../domain/memoryOrigin.js';
import { scrubPeople } from '../persona/personaScrub.js';
import { deleteDialogueNow } from './deleteDialogue.js';
import type { OpsDeps } from './opsDeps.js';

type Deps = Pick<OpsDeps, 'store' | 'replyLease' | 'log' | 'memoryVersions'>;

export interface PersonDeletion {
  /** The person's record and their linked identities'. */
  humans: number;
  /** Private chats deleted, with their messages and memories (counted below). */
  dialogues: number;
  messages: number;
  /** Messages of theirs in shared chats, marked deleted. */
  sharedMessages: number;
  /** Memories learned in their private chats and memories about them. */
  memories: number;
  relationshipNotes: number;
  /** Persona texts (evolved, earlier, held) that lost a sentence about them. */
  personaTexts: number;
}

export async function deletePerson(deps: Deps, id: string, now: Date): Promise<PersonDeletion> {
  const { store } = deps;
  const person = await store.participants.getHuman(id);
  if (!person) throw new GatewayError('NOT_FOUND', `no person with id ${id}`);
  const people = [person, ...(await store.participants.linkedIdentities(id))];
  const ids = people.map((p) => p._id);
  const counts: PersonDeletion = {
    humans: 0,
    dialogues: 0,
    messages: 0,
    sharedMessages: 0,
    memories: 0,
    relationshipNotes: 0,
    personaTexts: 0,
  };

  const dialogues = new Map(
    (await Promise.all(ids.map((h) => store.dialogues.ofHuman(h)))).flat().map((d) => [d._id, d]),
  );
  for (const d of dialogues.values()) {
    if (isPrivateChat(d) && d.humanIds.every((h) => ids.includes(h))) {
      const r = await deleteDialogueOnce(deps, d._id);
      if (!r) continue;
      counts.dialogues++;
      counts.messages += r.deleted.messages + r.deleted.archivedMessages;
      counts.memories += r.deleted.memories;
    } else {
      for (const m of await store.messages.undeletedOf(d._id, ids))
        if (await store.messages.markDeleted(m, now)) counts.sharedMessages++;
    }
  }

  for (const subjectId of ids) {
    counts.memories += await deleteMemoriesAbout(deps, subjectId);
    counts.relationshipNotes += await store.relationships.deleteAboutHuman(subjectId);
    // What they spent is about them too (their chats' and the deployment's totals stay).
    await store.spend.deletePerson(subjectId);
  }

  const names = namesOf(people);
  const rewrite = (text: string) => scrubPeople(text, { names, said: [] }).text;
  for (const agentId of await store.participants.agentIds())
    counts.personaTexts += await store.participants.rewritePersonas(agentId, rewrite, now);

  counts.humans = await store.participants.deleteHumans(ids);
  // Another deletion of the same person finished first: to this caller they were not there.
  if (counts.humans === 0) throw new GatewayError('NOT_FOUND', `no person with id ${id}`);
  deps.log.info({ humanId: id, ...counts }, 'person deleted by an operator (BR-006)');
  return counts;
}

/** Its deletion counts; null when another deletion removed the dialogue first. */
async function deleteDialogueOnce(deps: Deps, dialogueId: string) {
  try {
    return await deleteDialogueNow(deps, dialogueId);
  } catch (err) {
    if (isGatewayError(err) && err.code === 'CONVERSATION_NOT_FOUND') return null;
    throw err;
  }
}

/** Every memory about the person, scope by scope under its guard; the versions bumped with the ids. */
async function deleteMemoriesAbout(deps: Deps, subjectId: string): Promise<number> {
  const { memories } = deps.store;
  let deleted = 0;
  for (const ownerId of await memories.ownersAbout(subjectId)) {
    const scope = { ownerId, subjectId };
    const ids = await memories.guarded(scope, () => memories.deleteScope(scope));
    if (ids.length === 0) continue;
    deleted += ids.length;
    // The deletion is done either way: a version not bumped is logged, not thrown.
    await deps.memoryVersions
      ?.bump(scope, ids)
      .catch((err: unknown) =>
        deps.log.error(
          { err, scope },
          'memory version not bumped after a person deletion: warm indexes may recall deleted memories until their next change',
        ),
      );
  }
  return deleted;
}

/** The names a persona could know them by: display names, usernames, names on each platform. */
function namesOf(people: Human[]): string[] {
  const names = people.flatMap((p) => [
    p.displayName,
    ...p.identities.flatMap((i) => [i.displayName, i.username].filter((n): n is string => !!n)),
  ]);
  return [...new Set(names.map((n) => n.trim()).filter(Boolean))];
}
