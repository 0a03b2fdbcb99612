import type { Collection } from 'mongodb';
import { isDuplicateKey, type Collections } from './collections.js';
import type { Agent, AgentBinding, Human, PlatformIdentity, ToneState } from '../domain/model.js';
import { derivedId } from '../domain/ids.js';
import type { Visits } from '../domain/model.js';
import { guardKeys, type StateGuard } from './stateGuard.js';
import { MarkedCache, type WriteMark } from './markedCache.js';
import { Coalesced } from './coalesced.js';
import { applyModelSettingsPatch, type ModelSettingsPatch } from '../domain/agentModel.js';

export const DEFAULT_AGENT_ID = 'agt_default';

/** Persona evolution bookkeeping stored on the agent beside the fields of `Agent`. */
export interface AgentEvolution {
  /** Replies since the persona last evolved (a post-turn hook evolves it every N). */
  repliesSinceEvolve?: number;
  /** Earlier evolved personas, oldest first, each with when it was replaced. */
  evolvedPersonaHistory?: Array<{ text: string; from?: Date; replacedAt: Date }>;
  /**
   * The agent's latest answered turns, oldest first, at most RECENT_TURNS_KEPT (hot-path
   * pointer list: persona evolution reads them by `_id`). Absent on agents of earlier versions
   * until their next reply rebuilds it from the record.
   */
  recentTurns?: string[];
}

/** Answered turns kept on the agent for persona evolution (it reads DEFAULT_EVOLVE_TURNS of them). */
export const RECENT_TURNS_KEPT = 50;

export const humanIdOf = (identity: Pick<PlatformIdentity, 'platform' | 'userId'>) =>
  derivedId('hum', identity.platform, identity.userId);

/** A person seen for the first time, not yet stored (as `resolveHuman` creates one). */
export function newHuman(identity: PlatformIdentity, at: Date): Human {
  return {
    _id: humanIdOf(identity),
    identities: [identity],
    displayName: identity.displayName ?? identity.username ?? identity.userId,
    visits: {},
    createdAt: at,
    updatedAt: at,
  };
}

/**
 * An upsert of a person, tried again once when it lost the race to `insertHuman` (duplicate
 * `_id`): it then finds the stored person and updates it. MongoDB retries such an upsert on
 * its own; FerretDB reads, then inserts, so the insert can come in between.
 */
async function upsertHuman<T>(upsert: () => Promise<T>): Promise<T> {
  try {
    return await upsert();
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    return upsert();
  }
}

/**
 * Left out of `getAgent`: written on every reply (noteReplyForEvolve) without moving the agents'
 * write mark, so a cached agent never carries them; `getAgentEvolution` reads them.
 */
const EVOLUTION_BOOKKEEPING = { repliesSinceEvolve: 0, recentTurns: 0, evolvedPersonaHistory: 0 } as const;

export class ParticipantRepo {
  /** Agents as every turn reads them, behind the agents' write mark (markedCache.ts). */
  private readonly agents: MarkedCache<Agent | null>;

  /** Every reply of an agent notes itself on the agent: coalesced per process (coalesced.ts). */
  private readonly evolveNotes = new Coalesced<{ at: Date; turnId?: string }, number>((agentId, notes) =>
    this.writeEvolveNotes(agentId, notes),
  );

  constructor(
    private readonly c: Collections,
    private readonly guard: StateGuard,
    agentMark?: WriteMark,
  ) {
    this.agents = new MarkedCache(agentMark);
  }

  /** After any write of what `getAgent` returns: every process reads its agents again. */
  agentsWritten(): Promise<void> {
    return this.agents.written();
  }

  /**
   * Stores a person built by `newHuman`; false when another chat stored them first. Unguarded:
   * an insert by `_id` changes nothing already stored, and the unique `_id` decides a race with
   * an upsert of the same person (which retries: `upsertHuman`).
   */
  async insertHuman(human: Human): Promise<boolean> {
    try {
      await this.c.humans.insertOne(human);
      return true;
    } catch (err) {
      if (isDuplicateKey(err)) return false;
      throw err;
    }
  }

  /**
   * One Human per platform identity, created on first contact; the display name follows the
   * platform. A known human with an unchanged name is only read: most messages write nothing here.
   * `read`: the identity's record as the caller already read it (undefined: read it here).
   */
  async resolveHuman(identity: PlatformIdentity, at: Date, read?: Human | null): Promise<Human> {
    const { _id, displayName, updatedAt, ...onInsert } = newHuman(identity, at);
    const known = read !== undefined ? read : await this.getHuman(_id);
    if (known?.linkedTo) return this.linkedHuman(known);
    if (known && known.displayName === displayName) return known;
    return this.guard.run(guardKeys.human(_id), async () => {
      const doc = await upsertHuman(() =>
        this.c.humans.findOneAndUpdate(
          { _id },
          { $setOnInsert: onInsert, $set: { displayName, updatedAt } },
          { upsert: true, returnDocument: 'after' },
        ),
      );
      if (!doc) throw new Error(`human upsert returned nothing for ${_id}`);
      return doc;
    });
  }

  /** The person a linked identity speaks as (one more read by `_id`); the identity's own record if that one is gone. */
  private async linkedHuman(identityHuman: Human): Promise<Human> {
    const target = identityHuman.linkedTo ? await this.getHuman(identityHuman.linkedTo) : null;
    return target ?? identityHuman;
  }

  /**
   * Links a platform identity to another person (SPEC §12): the identity's own record points at
   * `into` from now on, and `into` lists the identity among its own. Idempotent.
   */
  async link(identity: PlatformIdentity, into: string, at: Date): Promise<void> {
    const from = humanIdOf(identity);
    await this.guard.run(guardKeys.human(from), () =>
      upsertHuman(() =>
        this.c.humans.updateOne(
          { _id: from },
          {
            $setOnInsert: { identities: [identity], createdAt: at, visits: {} },
            $set: { linkedTo: into, displayName: identity.displayName ?? identity.userId, updatedAt: at },
          },
          { upsert: true },
        ),
      ),
    );
    const bare = { platform: identity.platform, userId: identity.userId };
    await this.guard.run(guardKeys.human(into), () =>
      this.c.humans.updateOne({ _id: into }, { $addToSet: { identities: bare }, $set: { updatedAt: at } }),
    );
  }

  /** A new session began in a dialogue of this human with these agents (the persona card's visit count). */
  async noteVisit(human: Human, agentIds: readonly string[], at: Date): Promise<void> {
    await this.guard.run(guardKeys.human(human._id), async () => {
      const counted = await Promise.all(agentIds.map(async (a) => [a, await this.visitsOf(human, a)] as const));
      const set = Object.fromEntries(counted.map(([a, v]) => [`visits.${a}`, { ...v, count: v.count + 1 }]));
      await this.c.humans.updateOne({ _id: human._id }, { $set: { ...set, updatedAt: at } });
    });
  }

  /** A session of this human with these agents was summarised: its summary is their last topic, if it is the newest. */
  async noteTopic(
    humanId: string,
    agentIds: readonly string[],
    topic: NonNullable<Visits['lastTopic']>,
  ): Promise<void> {
    await this.guard.run(guardKeys.human(humanId), async () => {
      const human = await this.getHuman(humanId);
      if (!human) return;
      for (const agentId of agentIds) {
        const visits = await this.visitsOf(human, agentId);
        if (visits.lastTopic && visits.lastTopic.at.getTime() > topic.at.getTime()) continue;
        await this.c.humans.updateOne(
          { _id: humanId },
          { $set: { [`visits.${agentId}`]: { ...visits, lastTopic: topic } } },
        );
      }
    });
  }

  /**
   * The human's visits with an agent (none yet: a count of 0). A human stored before visits
   * existed gets them counted from the record once, for every agent, on first touch.
   */
  async visitsOf(human: Human, agentId: string): Promise<Visits> {
    const all = human.visits ?? (await this.rebuildVisits(human._id));
    return all[agentId] ?? { count: 0 };
  }

  private rebuildVisits(humanId: string): Promise<Record<string, Visits>> {
    return this.guard.run(guardKeys.human(humanId), async () => {
      const fresh = (await this.getHuman(humanId))?.visits;
      if (fresh) return fresh;
      const dialogues = await this.c.dialogues
        .find({ humanIds: humanId }, { projection: { _id: 1, agentIds: 1 } })
        .toArray();
      const agents = [...new Set(dialogues.flatMap((d) => d.agentIds))];
      const visits = Object.fromEntries(
        await Promise.all(
          agents.map(
            async (a) =>
              [
                a,
                await countVisits(
                  this.c,
                  dialogues.filter((d) => d.agentIds.includes(a)).map((d) => d._id),
                ),
              ] as const,
          ),
        ),
      );
      await this.c.humans.updateOne({ _id: humanId }, { $set: { visits } });
      return visits;
    });
  }

  /** The default agent exists from the first start; later starts never overwrite an edited persona. */
  async ensureDefaultAgent(name: string, persona: string, at: Date = new Date()): Promise<Agent> {
    const doc = await this.agentsWithEvolution.findOneAndUpdate(
      { _id: DEFAULT_AGENT_ID },
      { $setOnInsert: { name, basePersona: persona, isDefault: true, createdAt: at, updatedAt: at } },
      { upsert: true, returnDocument: 'after' },
    );
    if (!doc) throw new Error('default agent upsert returned nothing');
    // A new agent has no answered turns to rebuild. Set apart: FerretDB 1.24 drops an empty
    // array given to $setOnInsert.
    if (!doc.recentTurns && doc.createdAt.getTime() === at.getTime())
      await this.agentsWithEvolution.updateOne({ _id: DEFAULT_AGENT_ID }, { $set: { recentTurns: [] } });
    await this.agentsWritten();
    return doc;
  }

  /** A new agent (a room member); `recentTurns` set apart, as FerretDB drops empty arrays on insert. */
  async createAgent(
    agent: Pick<Agent, '_id' | 'name' | 'basePersona' | 'aliases' | 'bindings' | 'introduction' | 'modelSettings'>,
    at: Date,
  ): Promise<Agent> {
    const doc: Agent = { ...agent, isDefault: false, createdAt: at, updatedAt: at };
    await this.c.agents.insertOne(doc);
    await this.agentsWithEvolution.updateOne({ _id: agent._id }, { $set: { recentTurns: [] } });
    await this.agentsWritten();
    return doc;
  }

  /** An external agent registered through its seat (created, or renamed on a second registration). */
  async putExternalAgent(
    agent: Pick<Agent, '_id' | 'name' | 'basePersona' | 'external' | 'introduction' | 'capabilities'>,
    at: Date,
  ): Promise<void> {
    await this.c.agents.updateOne(
      { _id: agent._id },
      {
        $set: {
          name: agent.name,
          basePersona: agent.basePersona,
          external: agent.external,
          updatedAt: at,
          ...(agent.introduction ? { introduction: agent.introduction } : {}),
          ...(agent.capabilities ? { capabilities: agent.capabilities } : {}),
        },
        $setOnInsert: { isDefault: false, createdAt: at },
      },
      { upsert: true },
    );
    await this.agentsWritten();
  }

  /**
   * An operator's edit of an agent's own fields; returns the agent as stored, null when unknown.
   * `modelSettings` changes settings one by one (null clears one), merged with what is stored.
   */
  updateAgent(
    agentId: string,
    patch: Partial<Pick<Agent, 'name' | 'basePersona' | 'aliases' | 'introduction'>> & {
      modelSettings?: ModelSettingsPatch;
    },
    at: Date,
  ): Promise<(Agent & AgentEvolution) | null> {
    return this.guard.run(guardKeys.agent(agentId), async () => {
      const { modelSettings: settingsPatch, ...given } = patch;
      // A field left out arrives as undefined (zod keeps the key), which the driver would store as null.
      const fields = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined));
      let settings: { $set?: Pick<Agent, 'modelSettings'>; $unset?: { modelSettings: '' } } = {};
      if (settingsPatch) {
        // Read to merge (under the agent's guard, never the cached copy); the whole setting is
        // written back, or removed when none is left, so no empty object is kept.
        const stored = await this.c.agents.findOne({ _id: agentId }, { projection: { modelSettings: 1 } });
        if (!stored) return null;
        const next = applyModelSettingsPatch(stored.modelSettings, settingsPatch);
        settings = next ? { $set: { modelSettings: next } } : { $unset: { modelSettings: '' } };
      }
      const doc = await this.agentsWithEvolution.findOneAndUpdate(
        { _id: agentId },
        {
          $set: { ...fields, ...settings.$set, updatedAt: at },
          ...(settings.$unset ? { $unset: settings.$unset } : {}),
        },
        { returnDocument: 'after' },
      );
      if (doc) await this.agentsWritten();
      return doc;
    });
  }

  /** The agent no longer posts under its account on `platform`. */
  removeBinding(agentId: string, platform: AgentBinding['platform'], at: Date): Promise<void> {
    return this.guard.run(guardKeys.agent(agentId), async () => {
      const agent = await this.c.agents.findOne({ _id: agentId });
      if (!agent) return;
      const bindings = (agent.bindings ?? []).filter((b) => b.platform !== platform);
      await this.c.agents.updateOne({ _id: agentId }, { $set: { bindings, updatedAt: at } });
      await this.agentsWritten();
    });
  }

  /** The agent's account on a platform (one per platform: a new one replaces the old). */
  setBinding(agentId: string, binding: AgentBinding, at: Date): Promise<void> {
    return this.guard.run(guardKeys.agent(agentId), async () => {
      const agent = await this.c.agents.findOne({ _id: agentId }); // read to change: never the cached copy
      if (!agent) return;
      const bindings = [...(agent.bindings ?? []).filter((b) => b.platform !== binding.platform), binding];
      await this.c.agents.updateOne({ _id: agentId }, { $set: { bindings, updatedAt: at } });
      await this.agentsWritten();
    });
  }

  getHuman(id: string): Promise<Human | null> {
    return this.c.humans.findOne({ _id: id });
  }

  /**
   * Stores the tone carried into the human's next turn. Only moves forward in time: a reply
   * that finishes late in another dialogue never overwrites a newer state.
   */
  setTone(humanId: string, tone: ToneState): Promise<boolean> {
    return this.guard.run(guardKeys.human(humanId), async () => {
      const stored = (await this.getHuman(humanId))?.tone;
      if (stored && stored.updatedAt.getTime() >= tone.updatedAt.getTime()) return false;
      await this.c.humans.updateOne({ _id: humanId }, { $set: { tone, updatedAt: tone.updatedAt } });
      return true;
    });
  }

  /** The agent as a reply uses it (frozen, possibly this process's copy: see `agents`). */
  getAgent(id: string): Promise<Agent | null> {
    return this.agents.get(id, () => this.c.agents.findOne({ _id: id }, { projection: EVOLUTION_BOOKKEEPING }));
  }

  private get agentsWithEvolution(): Collection<Agent & AgentEvolution> {
    return this.c.agents;
  }

  /**
   * Counts one reply of the agent towards its next persona evolution and keeps the answered
   * turn in its recent list; returns the new count. Under the agent's guard (every dialogue of
   * the agent writes here), one hold for all the replies a process noted meanwhile.
   */
  noteReplyForEvolve(agentId: string, at: Date, turnId?: string): Promise<number> {
    return this.evolveNotes.add(agentId, { at, turnId });
  }

  /** One guarded write for the replies noted meanwhile; each gets its own count, in order. */
  private writeEvolveNotes(agentId: string, notes: Array<{ at: Date; turnId?: string }>): Promise<number[]> {
    return this.guard.run(guardKeys.agent(agentId), async () => {
      const agent = await this.getAgentEvolution(agentId);
      if (!agent) return notes.map(() => 0);
      const before = agent.repliesSinceEvolve ?? 0;
      let recent = agent.recentTurns ?? (await this.recentTurnsFromRecord(agentId, notes[0]?.turnId));
      for (const { turnId } of notes)
        if (turnId && !recent.includes(turnId)) recent = [...recent, turnId].slice(-RECENT_TURNS_KEPT);
      const at = notes[notes.length - 1]!.at;
      await this.agentsWithEvolution.updateOne(
        { _id: agentId },
        { $set: { repliesSinceEvolve: before + notes.length, recentTurns: recent, updatedAt: at } },
      );
      return notes.map((_, i) => before + i + 1);
    });
  }

  /** An agent of an earlier version: its latest answered turns, from one query (first touch). */
  private async recentTurnsFromRecord(agentId: string, except?: string): Promise<string[]> {
    const turns = await this.c.turns
      .find(
        {
          kind: 'dialogue',
          status: 'responded',
          $or: [
            { responderRole: 'ai', responderId: agentId },
            { initiatorRole: 'ai', initiatorId: agentId },
          ],
        },
        { projection: { _id: 1 } },
      )
      .sort({ startedAt: -1, _id: -1 })
      .limit(RECENT_TURNS_KEPT)
      .toArray();
    return turns
      .map((t) => t._id)
      .filter((id) => id !== except)
      .reverse();
  }

  getAgentEvolution(id: string): Promise<(Agent & AgentEvolution) | null> {
    return this.agentsWithEvolution.findOne({ _id: id });
  }

  /**
   * Replaces the evolved persona, keeping the old one in the history, and resets the reply
   * counter. Only if nobody evolved it since `expectedAt` (absent: never evolved); false otherwise.
   */
  setEvolvedPersona(
    agentId: string,
    next: { text: string; at: Date },
    previous: { text?: string; at?: Date },
  ): Promise<boolean> {
    return this.guard.run(guardKeys.agent(agentId), async () => {
      const stored = (await this.getAgentEvolution(agentId))?.evolvedPersonaAt;
      if (stored?.getTime() !== previous.at?.getTime()) return false;
      await this.agentsWithEvolution.updateOne(
        { _id: agentId },
        {
          $set: { evolvedPersona: next.text, evolvedPersonaAt: next.at, repliesSinceEvolve: 0, updatedAt: next.at },
          ...(previous.text !== undefined
            ? {
                $push: {
                  evolvedPersonaHistory: {
                    text: previous.text,
                    ...(previous.at ? { from: previous.at } : {}),
                    replacedAt: next.at,
                  },
                },
              }
            : {}),
        },
      );
      await this.agentsWritten();
      return true;
    });
  }

  /**
   * An operator's decision on the agent's held persona (SPEC §13): adopted, it becomes the
   * evolved persona (`text` when given, else the held text; the current one goes to the
   * history); discarded, it is gone. Either way nothing is held afterwards.
   */
  resolveHeldPersona(
    agentId: string,
    decision: { adopt: false } | { adopt: true; text?: string },
    at: Date,
  ): Promise<'resolved' | 'no_agent' | 'nothing_held'> {
    return this.guard.run(guardKeys.agent(agentId), async () => {
      const agent = await this.getAgentEvolution(agentId);
      if (!agent) return 'no_agent';
      if (!agent.heldPersona) return 'nothing_held';
      const adopted = decision.adopt ? (decision.text ?? agent.heldPersona.text) : undefined;
      await this.agentsWithEvolution.updateOne(
        { _id: agentId },
        {
          $unset: { heldPersona: '' },
          $set: {
            updatedAt: at,
            ...(adopted !== undefined ? { evolvedPersona: adopted, evolvedPersonaAt: at, repliesSinceEvolve: 0 } : {}),
          },
          ...(adopted !== undefined && agent.evolvedPersona !== undefined
            ? {
                $push: {
                  evolvedPersonaHistory: {
                    text: agent.evolvedPersona,
                    ...(agent.evolvedPersonaAt ? { from: agent.evolvedPersonaAt } : {}),
                    replacedAt: at,
                  },
                },
              }
            : {}),
        },
      );
      await this.agentsWritten();
      return 'resolved';
    });
  }

  /** The identities linked to a person: their own records point at them (SPEC §12). */
  linkedIdentities(humanId: string): Promise<Human[]> {
    return this.c.humans.find({ linkedTo: humanId }).toArray();
  }

  /** BR-006 of a person: their records (and their linked identities') go, last. */
  async deleteHumans(ids: readonly string[]): Promise<number> {
    if (ids.length === 0) return 0;
    return (await this.c.humans.deleteMany({ _id: { $in: [...ids] } })).deletedCount;
  }

  /** The agents a person can talk to in a private chat (built-in ones; agents are few), oldest first. */
  async privateChatAgents(): Promise<Array<Pick<Agent, '_id' | 'name' | 'aliases' | 'introduction' | 'isDefault'>>> {
    const agents = await this.c.agents
      .find(
        {},
        { projection: { _id: 1, name: 1, aliases: 1, introduction: 1, isDefault: 1, external: 1, createdAt: 1 } },
      )
      .toArray();
    return agents
      .filter((a) => !a.external)
      .sort((a, b) => Number(b.isDefault) - Number(a.isDefault) || a.createdAt.getTime() - b.createdAt.getTime())
      .map(({ _id, name, aliases, introduction, isDefault }) => ({
        _id,
        name,
        isDefault,
        ...(aliases ? { aliases } : {}),
        ...(introduction ? { introduction } : {}),
      }));
  }

  /** Every agent's id (agents are few). */
  async agentIds(): Promise<string[]> {
    return (await this.c.agents.find({}, { projection: { _id: 1 } }).toArray()).map((a) => a._id);
  }

  /**
   * Passes every persona text the agent keeps — the evolved persona, the earlier ones in its
   * history, a held one — through `rewrite` (BR-006 of a person: sentences about them go). A
   * text left empty is removed. Returns how many texts changed.
   */
  rewritePersonas(agentId: string, rewrite: (text: string) => string, at: Date): Promise<number> {
    return this.guard.run(guardKeys.agent(agentId), async () => {
      const agent = await this.getAgentEvolution(agentId);
      if (!agent) return 0;
      let changed = 0;
      const next = (text: string): string => {
        const out = rewrite(text);
        if (out !== text) changed++;
        return out;
      };
      const evolved = agent.evolvedPersona === undefined ? undefined : next(agent.evolvedPersona);
      const history = (agent.evolvedPersonaHistory ?? [])
        .map((v) => ({ ...v, text: next(v.text) }))
        .filter((v) => v.text.length > 0);
      const held = agent.heldPersona ? { ...agent.heldPersona, text: next(agent.heldPersona.text) } : undefined;
      if (changed === 0) return 0;
      const unset: Partial<Record<'evolvedPersona' | 'heldPersona', ''>> = {};
      if (evolved === '') unset.evolvedPersona = '';
      if (held?.text === '') unset.heldPersona = '';
      await this.agentsWithEvolution.updateOne(
        { _id: agentId },
        {
          $set: {
            updatedAt: at,
            ...(agent.evolvedPersonaHistory ? { evolvedPersonaHistory: history } : {}),
            ...(evolved ? { evolvedPersona: evolved } : {}),
            ...(held?.text ? { heldPersona: held } : {}),
          },
          ...(Object.keys(unset).length > 0 ? { $unset: unset } : {}),
        },
      );
      await this.agentsWritten();
      return changed;
    });
  }
}

/** Sessions in these dialogues, and the newest summarised one (the record's version of `Visits`). */
async function countVisits(c: Collections, dialogueIds: string[]): Promise<Visits> {
  const inDialogues = { dialogueId: { $in: dialogueIds } };
  const [count, previous] = await Promise.all([
    c.sessions.countDocuments(inDialogues),
    c.sessions
      .find({ ...inDialogues, status: 'closed', summary: { $exists: true } })
      .sort({ endedAt: -1 })
      .limit(1)
      .next(),
  ]);
  return {
    count,
    ...(previous?.summary ? { lastTopic: { text: previous.summary, at: previous.endedAt ?? previous.startedAt } } : {}),
  };
}
