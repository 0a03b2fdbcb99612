// Query.stats: counts, reply latency percentiles and token use over a window (default: the last
// 7 days, at most 366), for everything or one dialogue.
import { z } from 'zod';
import { builder } from '../builder.js';
import type { StatsBucket } from '../../src/stats/timeline.js';
import { apiError } from '../errors.js';
import { LATENCY_SAMPLE_MAX, type Stats, type TokenUse } from '../../src/stats/statsOf.js';
import { statsWindow, STATS_DEFAULT_DAYS, STATS_MAX_DAYS } from '../../src/query/timeWindow.js';
import { windowArgs } from './queryFilters.js';
import { dialogueOrNotFound } from './queriesDialogue.js';

const DialogueCountsType = builder.objectRef<Stats['dialogues']>('DialogueCounts').implement({
  fields: (t) => ({
    created: t.exposeInt('created', { description: 'Dialogues created in the window.' }),
    active: t.exposeInt('active', { description: 'Dialogues with at least one message in the window.' }),
  }),
});

const TurnCountsType = builder.objectRef<Stats['turns']>('TurnCounts').implement({
  description: 'Turns started in the window, by their status now.',
  fields: (t) => ({
    total: t.exposeInt('total'),
    pending: t.exposeInt('pending'),
    responded: t.exposeInt('responded'),
    unresponded: t.exposeInt('unresponded'),
  }),
});

const MessageCountsType = builder.objectRef<Stats['messages']>('MessageCounts').implement({
  description: 'Live messages created in the window, by sender role.',
  fields: (t) => ({
    total: t.exposeInt('total'),
    human: t.exposeInt('human'),
    ai: t.exposeInt('ai'),
    system: t.exposeInt('system'),
  }),
});

const LatencyType = builder.objectRef<Stats['replyLatency']>('ReplyLatency').implement({
  description:
    'Response time (ms from the turn’s start to the reply) of responded turns started in the window; nearest-rank percentiles.',
  fields: (t) => ({
    count: t.exposeInt('count', { description: 'Turns measured.' }),
    p50Ms: t.int({ nullable: true, resolve: (l) => l.p50 }),
    p90Ms: t.int({ nullable: true, resolve: (l) => l.p90 }),
    p99Ms: t.int({ nullable: true, resolve: (l) => l.p99 }),
    maxMs: t.int({ nullable: true, resolve: (l) => l.max }),
    sampled: t.exposeBoolean('sampled', {
      description: `More than ${LATENCY_SAMPLE_MAX} turns: only the most recent ${LATENCY_SAMPLE_MAX} were measured.`,
    }),
  }),
});

const TaskTokensType = builder.objectRef<TokenUse & { task: string }>('TaskTokens').implement({
  fields: (t) => ({
    task: t.exposeString('task', {
      description:
        '`reply` for the replies’ calls, `reflection` for self-reflection runs, else the background task (extract_memories, rolling_summary, …).',
    }),
    calls: t.exposeInt('calls'),
    promptTokens: t.exposeFloat('promptTokens'),
    completionTokens: t.exposeFloat('completionTokens'),
    totalTokens: t.exposeFloat('totalTokens'),
  }),
});

const TokensType = builder.objectRef<Stats['tokens']>('TokenStats').implement({
  description:
    'Tokens reported by the model in the window: the llm_call events (replies, memory and summary tasks; calls without usage count 0) and, for the whole deployment, self-reflection runs (task `reflection`, by their start; runs of earlier versions give only totalTokens). Floats: sums can pass GraphQL Int’s 32 bits.',
  fields: (t) => ({
    calls: t.exposeInt('calls'),
    promptTokens: t.exposeFloat('promptTokens'),
    completionTokens: t.exposeFloat('completionTokens'),
    totalTokens: t.exposeFloat('totalTokens'),
    byTask: t.field({ type: [TaskTokensType], resolve: (x) => x.byTask }),
  }),
});

const StatsBucketType = builder.objectRef<StatsBucket>('StatsBucket').implement({
  description: 'One slice of the stats window: the model’s tokens and the reply latency of turns started in it.',
  fields: (t) => ({
    start: t.field({ type: 'DateTime', resolve: (b) => b.start }),
    end: t.field({ type: 'DateTime', resolve: (b) => b.end }),
    calls: t.exposeInt('calls', { description: 'Model calls (replies, background tasks, reflection runs).' }),
    promptTokens: t.exposeFloat('promptTokens'),
    completionTokens: t.exposeFloat('completionTokens'),
    totalTokens: t.exposeFloat('totalTokens'),
    replies: t.exposeInt('replies', { description: 'Responded turns measured.' }),
    p50Ms: t.int({ nullable: true, resolve: (b) => b.p50Ms }),
    p90Ms: t.int({ nullable: true, resolve: (b) => b.p90Ms }),
  }),
});

export const TIMELINE_MAX_BUCKETS = 200;
const bucketCount = z
  .number()
  .int()
  .min(1, `buckets must be between 1 and ${TIMELINE_MAX_BUCKETS}`)
  .max(TIMELINE_MAX_BUCKETS, `buckets must be between 1 and ${TIMELINE_MAX_BUCKETS}`);

const StatsType = builder.objectRef<Stats>('Stats').implement({
  fields: (t) => ({
    since: t.field({ type: 'DateTime', resolve: (s) => s.since }),
    until: t.field({ type: 'DateTime', resolve: (s) => s.until }),
    dialogueId: t.exposeID('dialogueId', { nullable: true }),
    dialogues: t.field({ type: DialogueCountsType, resolve: (s) => s.dialogues }),
    sessions: t.exposeInt('sessions', { description: 'Sessions started in the window.' }),
    turns: t.field({ type: TurnCountsType, resolve: (s) => s.turns }),
    messages: t.field({ type: MessageCountsType, resolve: (s) => s.messages }),
    replyLatency: t.field({ type: LatencyType, resolve: (s) => s.replyLatency }),
    tokens: t.field({ type: TokensType, resolve: (s) => s.tokens }),
    timeline: t.field({
      type: [StatsBucketType],
      description: `The window in equal buckets (1 to ${TIMELINE_MAX_BUCKETS}), oldest first: tokens and reply latency over time.`,
      args: { buckets: t.arg.int({ defaultValue: 24 }) },
      resolve: (s, args, ctx) => {
        const buckets = bucketCount.safeParse(args.buckets ?? 24);
        if (!buckets.success) throw apiError('BAD_REQUEST', buckets.error.issues[0]?.message ?? 'invalid buckets');
        return ctx.store.stats.timeline({
          since: s.since,
          until: s.until,
          ...(s.dialogueId ? { dialogueId: s.dialogueId } : {}),
          buckets: buckets.data,
        });
      },
    }),
  }),
});

builder.queryFields((t) => ({
  stats: t.field({
    type: StatsType,
    description: `Counts, reply latency and tokens in [since, until): the last ${STATS_DEFAULT_DAYS} days by default, at most ${STATS_MAX_DAYS} days.`,
    args: { ...windowArgs, dialogueId: t.arg.id() },
    resolve: async (_r, args, ctx) => {
      const window = statsWindow(args, new Date());
      const dialogueId = args.dialogueId ? (await dialogueOrNotFound(ctx, String(args.dialogueId)))._id : undefined;
      return ctx.store.stats.collect({ ...window, ...(dialogueId ? { dialogueId } : {}) });
    },
  }),
}));
