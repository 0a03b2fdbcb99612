// The persona split's one-off migration (SPEC §13). An evolved persona written before it was
// split into an agent-wide part and per-person notes was asked to record "what it has learned
// about the people it talks with", so it may hold what someone said in private. A scrub cannot
// tell such a confidence without a name ("she is pregnant") from character growth, so the old
// text is held for an operator's review, in no prompt, and the agent-wide part grows again from
// the base persona at the next evolution. Awaited at start, before any role serves a turn.
import type { Logger } from '../log.js';
import type { Store } from './store.js';

export const PERSONA_SPLIT = 'persona-split-v1';

/** Holds every evolved persona of an earlier version; returns how many. */
export async function holdLegacyPersonas(store: Store, log: Logger, at = new Date()): Promise<number> {
  if (await store.migrations.done(PERSONA_SPLIT)) return 0;
  const agents = await store.c.agents
    .find({ evolvedPersona: { $exists: true } }, { projection: { _id: 1, evolvedPersona: 1 } })
    .toArray();
  let held = 0;
  for (const a of agents) {
    if (!a.evolvedPersona?.trim()) continue;
    await store.c.agents.updateOne(
      { _id: a._id },
      { $set: { heldPersona: { text: a.evolvedPersona, heldAt: at }, updatedAt: at }, $unset: { evolvedPersona: '' } },
    );
    held++;
  }
  if (held > 0) await store.participants.agentsWritten();
  await store.migrations.markDone(PERSONA_SPLIT, at);
  if (held > 0) log.info({ agents: held }, 'evolved personas of an earlier version held for review');
  return held;
}
