// Self-reflection's records (off the hot path): runs (`reflections`, seed 000's
// SelfReflectionSession), their introspection turns (`introspectionTurns`, ids derived from run
// and position) and each agent's reflection settings, values and mood (`reflectionAgents`, keyed
// by the agent id). A run has one writer at a time (the agent's reflection lock), so its writes
// are plain updates by `_id`. Also here, because only src/store holds collections: the bounded
// reads a run makes of the memories, and a rollback's exact restore of memory entries.
import type { Filter } from 'mongodb';
import type { Collections } from './collections.js';
import { isDuplicateKey } from './collections.js';
import type { MemoryEntry } from '../domain/model.js';
import {
  defaultAgentState,
  type BudgetUse,
  type InnerState,
  type IntrospectionTurn,
  type MemoryChange,
  type ReflectionAgentState,
  type ReflectionRollback,
  type ReflectionRun,
  type ReflectionSettings,
} from '../domain/reflection.js';
import type { ChangeFeed, FeedChange } from '../feed/changeFeed.js';
import type { PageSource } from './pages.js';
import type { StateGuard } from './stateGuard.js';

// State guard keys (src/store/stateGuard.ts): on FerretDB an update rewrites the whole document,
// so the schedule's list and an agent's state (written by operators, runs and the tick) take
// one writer at a time.
const SCHEDULE_GUARD = 'rfl:schedule';
const agentGuard = (agentId: string) => `rfa:${agentId}`;

type ReflectionChange = Extract<FeedChange, { kind: 'reflection' }>['change'];

export class ReflectionRepo {
  constructor(
    private readonly c: Collections,
    private readonly feed: ChangeFeed,
    private readonly guard: StateGuard,
    /** The agent's copy of its inner state is read by every reply: its cache is told (ParticipantRepo). */
    private readonly agentsWritten: () => Promise<void>,
  ) {}

  private announce(run: Pick<ReflectionRun, '_id' | 'agentId'>, change: ReflectionChange, turnId?: string): void {
    this.feed.publish({
      kind: 'reflection',
      agentId: run.agentId,
      reflectionId: run._id,
      change,
      ...(turnId ? { turnId } : {}),
    });
  }

  // ------------------------------------------------------------ runs

  get(id: string): Promise<ReflectionRun | null> {
    return this.c.reflections.findOne({ _id: id });
  }

  /** False when a run with this id exists (a scheduled slot started by another scheduler). */
  async insert(run: ReflectionRun): Promise<boolean> {
    try {
      await this.c.reflections.insertOne(run);
    } catch (err) {
      if (isDuplicateKey(err)) return false;
      throw err;
    }
    this.announce(run, 'queued');
    return true;
  }

  /** The API's list: an agent's runs, newest first (graphql/pagination.ts pages it). */
  readonly page: PageSource<ReflectionRun> = (query, sort, limit) =>
    this.c.reflections
      .find(query as Filter<ReflectionRun>)
      .sort(sort)
      .limit(limit)
      .toArray();

  /** An agent's runs not finished (at most a few: one runs at a time). */
  unfinishedOf(agentId: string): Promise<ReflectionRun[]> {
    return this.c.reflections
      .find({ agentId, status: { $in: ['queued', 'running'] } })
      .limit(50)
      .toArray();
  }

  async markStarted(run: ReflectionRun, at: Date, moodAtStart: ReflectionRun['moodAtStart']): Promise<void> {
    await this.c.reflections.updateOne(
      { _id: run._id },
      { $set: { status: 'running', startedAt: at, updatedAt: at, ...(moodAtStart ? { moodAtStart } : {}) } },
    );
    this.announce(run, 'started');
  }

  async setUsed(run: Pick<ReflectionRun, '_id'>, used: BudgetUse, at: Date): Promise<void> {
    await this.c.reflections.updateOne({ _id: run._id }, { $set: { 'budget.used': used, updatedAt: at } });
  }

  /** Appends to the rollback ledger right after the memory write it describes. */
  async addChanges(run: Pick<ReflectionRun, '_id'>, changes: MemoryChange[], at: Date): Promise<void> {
    if (changes.length === 0) return;
    await this.c.reflections.updateOne(
      { _id: run._id },
      { $push: { changes: { $each: changes } }, $set: { updatedAt: at } },
    );
  }

  async setInnerChange(run: Pick<ReflectionRun, '_id'>, inner: NonNullable<ReflectionRun['inner']>, at: Date) {
    await this.c.reflections.updateOne({ _id: run._id }, { $set: { inner, updatedAt: at } });
  }

  async finish(
    run: Pick<ReflectionRun, '_id' | 'agentId'>,
    end: Pick<ReflectionRun, 'status' | 'budgetHit' | 'failure' | 'report'> & { endedAt: Date },
  ): Promise<void> {
    const set = Object.fromEntries(
      Object.entries({ ...end, updatedAt: end.endedAt }).filter(([, v]) => v !== undefined),
    );
    await this.c.reflections.updateOne({ _id: run._id }, { $set: set });
    this.announce(run, 'finished');
  }

  async recordRollback(run: Pick<ReflectionRun, '_id' | 'agentId'>, rollback: ReflectionRollback): Promise<void> {
    await this.c.reflections.updateOne({ _id: run._id }, { $set: { rollback, updatedAt: rollback.at } });
    this.announce(run, 'rolled_back');
  }

  // ------------------------------------------------------------ turns

  /** Whole-document write by the turn's derived id (a retried step lands on the same turn). */
  async putTurn(run: Pick<ReflectionRun, '_id' | 'agentId'>, turn: IntrospectionTurn): Promise<void> {
    await this.c.introspectionTurns.replaceOne({ _id: turn._id }, turn, { upsert: true });
    await this.c.reflections.updateOne(
      { _id: run._id },
      { $addToSet: { turnIds: turn._id }, $set: { updatedAt: turn.startedAt } },
    );
    this.announce(run, 'turn', turn._id);
  }

  turn(id: string): Promise<IntrospectionTurn | null> {
    return this.c.introspectionTurns.findOne({ _id: id });
  }

  /** Turns by id (the API batches a request's turns into one read); missing ones are left out. */
  turnsByIds(ids: readonly string[]): Promise<IntrospectionTurn[]> {
    return this.c.introspectionTurns.find({ _id: { $in: [...ids] } }).toArray();
  }

  // ------------------------------------------------------------ per-agent state

  agentState(agentId: string): Promise<ReflectionAgentState | null> {
    return this.c.reflectionAgents.findOne({ _id: agentId });
  }

  /** The state, with defaults for an agent that has none yet (reflection off). */
  async agentStateOrDefault(agentId: string, at: Date): Promise<ReflectionAgentState> {
    return (await this.agentState(agentId)) ?? defaultAgentState(agentId, at);
  }

  async putSettings(agentId: string, settings: ReflectionSettings, at: Date): Promise<ReflectionAgentState> {
    const defaults = defaultAgentState(agentId, at);
    await this.guard.run(agentGuard(agentId), () =>
      this.c.reflectionAgents.updateOne(
        { _id: agentId },
        { $set: { settings, updatedAt: at }, $setOnInsert: { values: defaults.values, mood: defaults.mood } },
        { upsert: true },
      ),
    );
    await this.guard.run(SCHEDULE_GUARD, () =>
      this.c.reflectionSchedule.updateOne(
        { _id: 'enabled' },
        {
          ...(settings.enabled ? { $addToSet: { agentIds: agentId } } : { $pull: { agentIds: agentId } }),
          $set: { updatedAt: at },
        },
        { upsert: true },
      ),
    );
    return (await this.agentState(agentId))!;
  }

  /** The agent's mood and values: its reflection state, and the copy on the agent a reply's context reads. */
  async setInner(agentId: string, inner: InnerState, by: string | undefined, at: Date): Promise<void> {
    const defaults = defaultAgentState(agentId, at);
    await this.guard.run(agentGuard(agentId), async () => {
      await this.c.agents.updateOne({ _id: agentId }, { $set: { inner: { mood: inner.mood, values: inner.values } } });
      await this.agentsWritten();
      await this.c.reflectionAgents.updateOne(
        { _id: agentId },
        {
          $set: { values: inner.values, mood: inner.mood, updatedAt: at, ...(by ? { innerUpdatedBy: by } : {}) },
          ...(by ? {} : { $unset: { innerUpdatedBy: '' as const } }),
          $setOnInsert: { settings: defaults.settings },
        },
        { upsert: true },
      );
    });
  }

  async setLastSlot(agentId: string, slot: Date): Promise<void> {
    await this.guard.run(agentGuard(agentId), () =>
      this.c.reflectionAgents.updateOne({ _id: agentId }, { $set: { lastSlot: slot } }),
    );
  }

  /** Agents whose schedule is on (the scheduler's tick): one list read and each agent by `_id`. */
  async enabledAgents(): Promise<ReflectionAgentState[]> {
    const list = await this.c.reflectionSchedule.findOne({ _id: 'enabled' });
    const states = await Promise.all((list?.agentIds ?? []).map((id) => this.agentState(id)));
    return states.filter((s): s is ReflectionAgentState => s !== null && s.settings.enabled);
  }

  // ------------------------------------------------------------ memories a run reads and a rollback restores

  /** An agent's active memories changed since `since`, newest first, at most `limit`. */
  recentMemoriesOf(agentId: string, since: Date, limit: number): Promise<MemoryEntry[]> {
    return this.c.memories
      .find({ ownerId: agentId, status: 'active', updatedAt: { $gte: since } })
      .sort({ updatedAt: -1, _id: -1 })
      .limit(limit)
      .toArray();
  }

  /**
   * Stored entries with these dedupe keys under any id (an entry of an earlier version may sit
   * under a random id): the snapshot before a write must hold every entry the write can touch.
   */
  memoriesByDedupeKeys(keys: readonly string[]): Promise<MemoryEntry[]> {
    if (keys.length === 0) return Promise.resolve([]);
    return this.c.memories.find({ dedupeKey: { $in: [...keys] } }).toArray();
  }

  /** Provenance a reflection adds to the entries it wrote: the memories behind them. */
  async addMemoryBasis(ids: readonly string[], memoryIds: readonly string[]): Promise<void> {
    if (memoryIds.length === 0) return;
    await Promise.all(
      ids.map((id) =>
        this.c.memories.updateOne({ _id: id }, { $addToSet: { 'sources.memoryIds': { $each: [...memoryIds] } } }),
      ),
    );
  }

  /**
   * Puts an entry back exactly as it was (text, status, links, sources, vector, times), keeping
   * its recall statistics: those count uses, they are not what the entry says. Callers hold the
   * scope's state guard.
   */
  async restoreMemory(entry: MemoryEntry): Promise<void> {
    const now = await this.c.memories.findOne({ _id: entry._id }, { projection: { recall: 1 } });
    await this.c.memories.replaceOne({ _id: entry._id }, { ...entry, recall: now?.recall ?? entry.recall });
  }

  /** Removes an entry a rolled-back run created (its text stays on the run's turns). */
  async removeMemory(id: string): Promise<void> {
    await this.c.memories.deleteOne({ _id: id });
  }
}
