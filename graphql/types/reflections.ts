// Self-reflection (SPEC §9, seed 000): an agent's runs (SelfReflectionSession) with their
// introspection turns, the agent's reflection settings, values and mood; operators trigger a run,
// roll one back as a unit and set the schedule; viewers follow runs live. The work is in
// src/reflection; these fields map arguments and results. Turns of a request's runs are read in
// one batch (a per-request loader, no query per run).
import DataLoader from 'dataloader';
import { filter, pipe } from 'graphql-yoga';
import { builder, type GraphQLContext } from '../builder.js';
import { apiError, found, stillThere } from '../errors.js';
import { recordById } from '../byId.js';
import { keysetConnection } from '../pagination.js';
import type { FeedChange } from '../../src/feed/changeFeed.js';
import type { MemoryEntry } from '../../src/domain/model.js';
import {
  REFLECTION_STEPS,
  type AgentMood,
  type BudgetHit,
  type IntrospectionTurn,
  type MemoryChange,
  type ReflectionAgentState,
  type ReflectionRollback,
  type ReflectionRun,
  type ReflectionSettings,
  type ValueChange,
} from '../../src/domain/reflection.js';
import type { ReflectionOps } from '../../src/reflection/deps.js';
import { triggerReflection } from '../../src/reflection/trigger.js';
import { rollbackReflection } from '../../src/reflection/rollback.js';
import { setReflectionSettings } from '../../src/reflection/settings.js';
import { SessionKindEnum } from './enums.js';
import { AgentType, HumanType } from './participants.js';
import { MemoryType } from './memory.js';

// ---------------------------------------------------------------- loaders

const turnLoaders = new WeakMap<GraphQLContext, DataLoader<string, IntrospectionTurn | null>>();

/** The request's loader of introspection turns by id (one read per level of a query). */
function turnLoader(ctx: GraphQLContext): DataLoader<string, IntrospectionTurn | null> {
  let l = turnLoaders.get(ctx);
  if (!l) {
    l = new DataLoader(async (ids) => {
      const found = new Map((await ctx.store.reflections.turnsByIds(ids)).map((t) => [t._id, t]));
      return ids.map((id) => found.get(id) ?? null);
    });
    turnLoaders.set(ctx, l);
  }
  return l;
}

async function loadTurns(ctx: GraphQLContext, ids: readonly string[]): Promise<IntrospectionTurn[]> {
  const turns = await turnLoader(ctx).loadMany(ids);
  return turns.filter((t): t is IntrospectionTurn => t !== null && !(t instanceof Error)).sort((a, b) => a.seq - b.seq);
}

async function loadMemories(ctx: GraphQLContext, ids: readonly string[]): Promise<MemoryEntry[]> {
  return (await ctx.loaders.memory.loadMany(ids)).filter((m): m is MemoryEntry => m !== null && !(m instanceof Error));
}

// ---------------------------------------------------------------- small types

const ReflectionStatusEnum = builder.enumType('ReflectionStatus', {
  values: ['queued', 'running', 'completed', 'failed', 'budget_exceeded'] as const,
});
const ReflectionStepEnum = builder.enumType('ReflectionStep', { values: REFLECTION_STEPS });
const ReflectionTriggerEnum = builder.enumType('ReflectionTrigger', { values: ['schedule', 'operator'] as const });
const IntrospectionStatusEnum = builder.enumType('IntrospectionStatus', {
  values: ['done', 'failed', 'budget_exceeded'] as const,
});

const AgentMoodType = builder.objectRef<AgentMood>('AgentMood').implement({
  fields: (t) => ({
    label: t.exposeString('label'),
    valence: t.exposeFloat('valence', { description: '−1 (low) .. 1 (bright).' }),
    arousal: t.exposeFloat('arousal', { description: '0 (still) .. 1 (stirred).' }),
  }),
});

const AgentValueType = builder.objectRef<{ name: string; weight: number }>('AgentValue').implement({
  fields: (t) => ({ name: t.exposeString('name'), weight: t.exposeFloat('weight', { description: '0..1.' }) }),
});

const ValueChangeType = builder.objectRef<ValueChange>('ValueChange').implement({
  fields: (t) => ({
    name: t.exposeString('name'),
    before: t.exposeFloat('before', { nullable: true, description: 'null: a new value.' }),
    proposed: t.exposeFloat('proposed'),
    after: t.exposeFloat('after'),
    limited: t.exposeBoolean('limited', { description: 'Moved less than proposed (at most 0.2 per reflection).' }),
  }),
});

const MoodShiftType = builder.objectRef<{ before: AgentMood; after: AgentMood }>('MoodShift').implement({
  fields: (t) => ({
    before: t.field({ type: AgentMoodType, resolve: (m) => m.before }),
    after: t.field({ type: AgentMoodType, resolve: (m) => m.after }),
  }),
});

const ValueImpactType = builder.objectRef<{ changes: ValueChange[] }>('ValueImpact').implement({
  fields: (t) => ({ changes: t.field({ type: [ValueChangeType], resolve: (v) => v.changes }) }),
});

const ErrorInfoType = builder.objectRef<{ code: string; message: string }>('IntrospectionError').implement({
  fields: (t) => ({ code: t.exposeString('code'), message: t.exposeString('message') }),
});

type InputContext = IntrospectionTurn['inputContext'];
const IntrospectionInputType = builder.objectRef<InputContext>('IntrospectionInput').implement({
  description: 'What an introspection turn read.',
  fields: (t) => ({
    memoryIds: t.idList({ resolve: (c) => c.memoryIds }),
    memories: t.field({ type: [MemoryType], resolve: (c, _a, ctx) => loadMemories(ctx, c.memoryIds) }),
    messageIds: t.idList({ resolve: (c) => c.messageIds }),
    turnIds: t.idList({ resolve: (c) => c.turnIds, description: 'Conversation turns it read.' }),
    humanIds: t.idList({ resolve: (c) => c.humanIds }),
    omitted: t.field({
      type: 'JSON',
      nullable: true,
      description: 'What the read bounds left out (counts, or ids left for a later run).',
      resolve: (c) => c.omitted ?? null,
    }),
  }),
});

const valuesOf = (v: Record<string, number>) => Object.entries(v).map(([name, weight]) => ({ name, weight }));

// ---------------------------------------------------------------- introspection turn

const IntrospectionTurnType = builder.objectRef<IntrospectionTurn>('IntrospectionTurn').implement({
  description: "Seed 000's IntrospectionTurn: one step of a reflection, its tool call and what it changed.",
  fields: (t) => ({
    id: t.exposeID('_id'),
    kind: t.exposeString('kind', { description: 'Always `introspection`.' }),
    reflectionId: t.exposeID('reflectionId'),
    seq: t.exposeInt('seq', { description: 'Position in the run, from 0.' }),
    step: t.expose('step', { type: ReflectionStepEnum }),
    purpose: t.exposeString('purpose'),
    subjectId: t.exposeID('subjectId', { nullable: true }),
    subject: t.field({
      type: HumanType,
      nullable: true,
      resolve: (x, _a, ctx) => (x.subjectId ? ctx.loaders.human.load(x.subjectId) : null),
    }),
    inputContext: t.field({ type: IntrospectionInputType, resolve: (x) => x.inputContext }),
    tool: t.exposeString('tool'),
    toolInput: t.field({ type: 'JSON', nullable: true, resolve: (x) => x.toolInput ?? null }),
    toolOutput: t.field({ type: 'JSON', nullable: true, resolve: (x) => x.toolOutput ?? null }),
    status: t.expose('status', { type: IntrospectionStatusEnum }),
    error: t.field({ type: ErrorInfoType, nullable: true, resolve: (x) => x.error ?? null }),
    generatedMemoryIds: t.idList({ resolve: (x) => x.generatedMemoryIds }),
    generatedMemories: t.field({
      type: [MemoryType],
      description: 'As they are now (a rolled-back run’s created memories are gone; their text is in toolOutput).',
      resolve: (x, _a, ctx) => loadMemories(ctx, x.generatedMemoryIds),
    }),
    supersededMemoryIds: t.idList({ resolve: (x) => x.supersededMemoryIds }),
    notes: t.exposeStringList('notes', {
      description: 'Proposals not applied as given, with why (invalid, cut, limited, over budget).',
    }),
    moodShift: t.field({ type: MoodShiftType, nullable: true, resolve: (x) => x.moodShift }),
    valueImpact: t.field({ type: ValueImpactType, nullable: true, resolve: (x) => x.valueImpact }),
    model: t.exposeString('model', { nullable: true }),
    tokens: t.exposeInt('tokens'),
    startedAt: t.field({ type: 'DateTime', resolve: (x) => x.startedAt }),
    durationMs: t.exposeInt('durationMs'),
  }),
});

// ---------------------------------------------------------------- reflection run

const BudgetType = builder.objectRef<ReflectionRun['budget']>('ReflectionBudget').implement({
  fields: (t) => ({
    maxTokens: t.int({ resolve: (b) => b.limits.maxTokens }),
    maxMemories: t.int({ resolve: (b) => b.limits.maxMemories }),
    usedTokens: t.int({ resolve: (b) => b.used.tokens }),
    usedMemories: t.int({ resolve: (b) => b.used.memories }),
    calls: t.int({ resolve: (b) => b.used.calls, description: 'Model calls made.' }),
  }),
});

const BudgetHitType = builder.objectRef<BudgetHit>('ReflectionBudgetHit').implement({
  description: 'The limit that stopped the run: where, what was used, and what the step wanted.',
  fields: (t) => ({
    resource: t.exposeString('resource', { description: '`tokens` or `memories`.' }),
    limit: t.exposeInt('limit'),
    used: t.exposeInt('used'),
    wanted: t.exposeInt('wanted'),
    seq: t.exposeInt('seq'),
    step: t.expose('step', { type: ReflectionStepEnum }),
    when: t.exposeString('when', {
      description: '`before_call`, `after_call` (output not applied) or `before_write`.',
    }),
  }),
});

const FailureType = builder.objectRef<NonNullable<ReflectionRun['failure']>>('ReflectionFailure').implement({
  fields: (t) => ({
    code: t.exposeString('code'),
    message: t.exposeString('message'),
    seq: t.exposeInt('seq', { nullable: true }),
    step: t.expose('step', { type: ReflectionStepEnum, nullable: true }),
  }),
});

const MemoryChangeType = builder.objectRef<MemoryChange>('ReflectionMemoryChange').implement({
  description: 'One memory the run wrote or retired (the rollback ledger).',
  fields: (t) => ({
    memoryId: t.exposeID('memoryId'),
    seq: t.exposeInt('seq'),
    turnId: t.exposeID('turnId'),
    created: t.boolean({ resolve: (c) => c.before === null }),
    before: t.field({
      type: MemoryType,
      nullable: true,
      description: 'The entry as it was before the run (null: the run created it).',
      resolve: (c) => c.before,
    }),
    memory: t.field({
      type: MemoryType,
      nullable: true,
      description: 'The entry now (null: removed by a rollback, or deleted with its dialogue).',
      resolve: (c, _a, ctx) => ctx.loaders.memory.load(c.memoryId),
    }),
  }),
});

const RollbackType = builder.objectRef<ReflectionRollback>('ReflectionRollback').implement({
  fields: (t) => ({
    at: t.field({ type: 'DateTime', resolve: (r) => r.at }),
    by: t.exposeString('by'),
    restoredIds: t.idList({ resolve: (r) => r.restoredIds }),
    removedIds: t.idList({ resolve: (r) => r.removedIds }),
    skipped: t.field({ type: 'JSON', resolve: (r) => r.skipped }),
    innerRestored: t.exposeBoolean('innerRestored', { description: 'Values and mood were put back.' }),
  }),
});

export const ReflectionType = builder.objectRef<ReflectionRun>('Reflection').implement({
  description: "Seed 000's SelfReflectionSession: one run of an agent's self-reflection.",
  fields: (t) => ({
    id: t.exposeID('_id'),
    kind: t.expose('kind', { type: SessionKindEnum }),
    agentId: t.exposeID('agentId'),
    agent: t.field({ type: AgentType, nullable: true, resolve: (r, _a, ctx) => ctx.loaders.agent.load(r.agentId) }),
    trigger: t.field({ type: ReflectionTriggerEnum, resolve: (r) => r.trigger.source }),
    triggeredBy: t.string({ nullable: true, resolve: (r) => r.trigger.by ?? null }),
    slot: t.field({ type: 'DateTime', nullable: true, resolve: (r) => r.trigger.slot ?? null }),
    goal: t.exposeString('goal'),
    status: t.expose('status', { type: ReflectionStatusEnum }),
    budget: t.field({ type: BudgetType, resolve: (r) => r.budget }),
    budgetHit: t.field({ type: BudgetHitType, nullable: true, resolve: (r) => r.budgetHit ?? null }),
    failure: t.field({ type: FailureType, nullable: true, resolve: (r) => r.failure ?? null }),
    moodAtStart: t.field({ type: AgentMoodType, nullable: true, resolve: (r) => r.moodAtStart ?? null }),
    report: t.exposeString('report', { nullable: true }),
    turns: t.field({ type: [IntrospectionTurnType], resolve: (r, _a, ctx) => loadTurns(ctx, r.turnIds) }),
    memoryChanges: t.field({ type: [MemoryChangeType], resolve: (r) => r.changes }),
    valuesBefore: t.field({
      type: [AgentValueType],
      nullable: true,
      resolve: (r) => (r.inner ? valuesOf(r.inner.before.values) : null),
    }),
    valuesAfter: t.field({
      type: [AgentValueType],
      nullable: true,
      resolve: (r) => (r.inner ? valuesOf(r.inner.after.values) : null),
    }),
    rollback: t.field({ type: RollbackType, nullable: true, resolve: (r) => r.rollback ?? null }),
    queuedAt: t.field({ type: 'DateTime', resolve: (r) => r.queuedAt }),
    startedAt: t.field({ type: 'DateTime', nullable: true, resolve: (r) => r.startedAt ?? null }),
    endedAt: t.field({ type: 'DateTime', nullable: true, resolve: (r) => r.endedAt ?? null }),
  }),
});

// ---------------------------------------------------------------- agent state and settings

const QuietHoursType = builder
  .objectRef<NonNullable<ReflectionSettings['quietHours']>>('QuietHours')
  .implement({ fields: (t) => ({ start: t.exposeString('start'), end: t.exposeString('end') }) });

const ReflectionSettingsType = builder.objectRef<ReflectionSettings>('ReflectionSettings').implement({
  fields: (t) => ({
    enabled: t.exposeBoolean('enabled', { description: 'The schedule is on (off by default).' }),
    cron: t.exposeString('cron', { description: 'minute hour day-of-month month day-of-week, in `timezone`.' }),
    timezone: t.exposeString('timezone', { nullable: true, description: "null: the deployment's DISPLAY_TIMEZONE." }),
    quietHours: t.field({ type: QuietHoursType, nullable: true, resolve: (s) => s.quietHours ?? null }),
    lookbackHours: t.exposeInt('lookbackHours'),
  }),
});

const ReflectionStateType = builder.objectRef<ReflectionAgentState>('ReflectionState').implement({
  description: "An agent's reflection schedule, values and mood.",
  fields: (t) => ({
    agentId: t.exposeID('_id'),
    settings: t.field({ type: ReflectionSettingsType, resolve: (s) => s.settings }),
    values: t.field({ type: [AgentValueType], resolve: (s) => valuesOf(s.values) }),
    mood: t.field({ type: AgentMoodType, resolve: (s) => s.mood }),
    valuesSetBy: t.exposeID('innerUpdatedBy', {
      nullable: true,
      description: 'The reflection that set values and mood.',
    }),
    lastSlot: t.field({ type: 'DateTime', nullable: true, resolve: (s) => s.lastSlot ?? null }),
  }),
});

const QuietHoursInput = builder.inputType('QuietHoursInput', {
  fields: (t) => ({
    start: t.string({ required: true, description: 'Local HH:MM.' }),
    end: t.string({ required: true, description: 'Local HH:MM; before start spans midnight.' }),
  }),
});

const ReflectionSettingsInput = builder.inputType('ReflectionSettingsInput', {
  description: 'Fields left out keep their value; timezone or quietHours null clear them.',
  fields: (t) => ({
    enabled: t.boolean(),
    cron: t.string(),
    timezone: t.string(),
    quietHours: t.field({ type: QuietHoursInput }),
    lookbackHours: t.int(),
  }),
});

// ---------------------------------------------------------------- queries, mutations, subscription

async function requireAgent(ctx: GraphQLContext, agentId: string): Promise<void> {
  found(await ctx.loaders.agent.load(agentId), 'agent', agentId);
}

function reflectionOps(ctx: GraphQLContext): ReflectionOps {
  if (!ctx.ops.reflection) throw apiError('BAD_REQUEST', 'self-reflection is not available in this deployment');
  return ctx.ops.reflection;
}

builder.queryFields((t) => ({
  reflections: t.connection({
    type: ReflectionType,
    description: "An agent's reflections, newest first.",
    args: { agentId: t.arg.id({ required: true }), status: t.arg({ type: ReflectionStatusEnum }) },
    resolve: async (_r, args, ctx) => {
      const agentId = String(args.agentId);
      await requireAgent(ctx, agentId);
      const where = { agentId, ...(args.status ? { status: args.status } : {}) };
      return keysetConnection<ReflectionRun>(ctx.store.reflections.page, where, 'queuedAt', -1, args);
    },
  }),
  reflectionState: t.field({
    type: ReflectionStateType,
    description: "An agent's reflection settings, values and mood (defaults until first set).",
    args: { agentId: t.arg.id({ required: true }) },
    resolve: async (_r, a, ctx) => {
      const agentId = String(a.agentId);
      await requireAgent(ctx, agentId);
      return ctx.store.reflections.agentStateOrDefault(agentId, new Date());
    },
  }),
}));

builder.mutationFields((t) => ({
  triggerReflection: t.field({
    type: ReflectionType,
    description:
      'Queues a self-reflection of the agent now (returned queued). One per agent at a time: while one is queued or running, REFLECTION_RUNNING names it. Unknown agent: NOT_FOUND.',
    args: { agentId: t.arg.id({ required: true }) },
    resolve: (_r, a, ctx) => {
      const ops = reflectionOps(ctx);
      return triggerReflection(
        { store: ctx.store, lock: ops.lock, queue: ops.queue, log: ctx.ops.log },
        { agentId: String(a.agentId), source: 'operator', by: ctx.viewer.name, now: new Date() },
      );
    },
  }),
  rollbackReflection: t.field({
    type: ReflectionType,
    description:
      'Undoes a finished reflection as a unit: memories it created leave the memory set, entries it changed or superseded are restored exactly, values and mood go back. A memory changed since → REFLECTION_ROLLBACK_CONFLICT (roll back newer runs first); nothing is changed then.',
    args: { reflectionId: t.arg.id({ required: true }) },
    resolve: (_r, a, ctx) => {
      const ops = reflectionOps(ctx);
      return rollbackReflection(
        { store: ctx.store, lock: ops.lock, memoryVersions: ctx.ops.memoryVersions, log: ctx.ops.log },
        String(a.reflectionId),
        { by: ctx.viewer.name, now: new Date() },
      );
    },
  }),
  setReflectionSettings: t.field({
    type: ReflectionStateType,
    description: "Sets an agent's reflection schedule (CONFIG_INVALID names every bad field).",
    args: {
      agentId: t.arg.id({ required: true }),
      settings: t.arg({ type: ReflectionSettingsInput, required: true }),
    },
    resolve: (_r, a, ctx) => setReflectionSettings(ctx, String(a.agentId), patchOf(a.settings), new Date()),
  }),
}));

/** GraphQL's absent fields stay absent; explicit nulls clear timezone and quiet hours, and are ignored elsewhere. */
function patchOf(input: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(input).filter(([k, v]) => v !== undefined && (v !== null || k === 'timezone' || k === 'quietHours')),
  );
}

type ReflectionFeed = Extract<FeedChange, { kind: 'reflection' }>;
const isReflectionChange = (c: FeedChange): c is ReflectionFeed => c.kind === 'reflection';

const ReflectionChangeEnum = builder.enumType('ReflectionChange', {
  values: {
    QUEUED: { value: 'queued' },
    STARTED: { value: 'started' },
    TURN: { value: 'turn', description: 'An introspection turn was stored (`turn`).' },
    FINISHED: { value: 'finished' },
    ROLLED_BACK: { value: 'rolled_back' },
  } as const,
});

interface ReflectionEvent {
  change: ReflectionFeed['change'];
  reflection: ReflectionRun;
  turn: IntrospectionTurn | null;
}

const ReflectionEventType = builder.objectRef<ReflectionEvent>('ReflectionEvent').implement({
  description: 'A reflection of the agent changed; `reflection` is its state when the event was sent.',
  fields: (t) => ({
    change: t.field({ type: ReflectionChangeEnum, resolve: (e) => e.change }),
    reflection: t.field({ type: ReflectionType, resolve: (e) => e.reflection }),
    turn: t.field({ type: IntrospectionTurnType, nullable: true, resolve: (e) => e.turn }),
  }),
});

builder.subscriptionFields((t) => ({
  reflectionEvents: t.field({
    type: ReflectionEventType,
    description: "An agent's reflections as they are queued, start, store each turn, finish and are rolled back.",
    args: { agentId: t.arg.id({ required: true }) },
    subscribe: async (_root, args, ctx) => {
      const agentId = String(args.agentId);
      await requireAgent(ctx, agentId);
      return pipe(ctx.pubsub.subscribe(ctx.pubsub.topics.reflections, agentId), filter(isReflectionChange));
    },
    // Read fresh, not through the request's loaders (a subscription outlives their cache).
    resolve: async (change, _args, ctx) => {
      const [reflection, turn] = await Promise.all([
        ctx.store.reflections.get(change.reflectionId),
        change.turnId ? ctx.store.reflections.turn(change.turnId) : Promise.resolve(null),
      ]);
      return { change: change.change, reflection: stillThere(reflection, 'reflection', change.reflectionId), turn };
    },
  }),
}));

recordById('reflection', ReflectionType, (ctx, id) => ctx.store.reflections.get(id));
