// Memories (MemoryEntry): what an agent remembers about a human. Retired entries stay stored
// (superseded → supersededBy, merged → mergedInto), so an operator can follow a fact's history.
// Semantic search runs the turn's own recall (vector + keyword, fused), without counting as a recall.
import { z } from 'zod';
import { builder } from '../builder.js';
import { MEMORY_KINDS, type MemoryEntry, type MemoryOrigin } from '../../src/domain/model.js';
import type { GraphQLContext } from '../context.js';
import { keysetConnection } from '../pagination.js';
import { apiError } from '../errors.js';
import { recordById } from '../byId.js';
import { MemoryKindEnum, MemoryStatusEnum } from './enums.js';
import { AgentType, HumanType } from './participants.js';
import { DialogueType } from './dialogue.js';

/** Successor links followed at most this far (a chain of rewrites is short; a cycle must not hang). */
export const MEMORY_CHAIN_MAX = 20;

export const MemoryType = builder.objectRef<MemoryEntry>('Memory');

type Sources = MemoryEntry['sources'];
const MemorySourcesType = builder.objectRef<Sources>('MemorySources').implement({
  description: 'Where the memory came from: the conversation, or the memories it was folded from.',
  fields: (t) => ({
    dialogueId: t.exposeID('dialogueId', { nullable: true }),
    dialogue: t.field({
      type: DialogueType,
      nullable: true,
      resolve: (s, _a, ctx) => (s.dialogueId ? ctx.loaders.dialogue.load(s.dialogueId) : null),
    }),
    sessionId: t.exposeID('sessionId', { nullable: true }),
    turnIds: t.idList({ resolve: (s) => s.turnIds ?? [] }),
    messageIds: t.idList({ resolve: (s) => s.messageIds ?? [] }),
    memoryIds: t.idList({ resolve: (s) => s.memoryIds ?? [] }),
    memories: t.field({
      type: [MemoryType],
      description: 'The memories folded into this one (consolidation).',
      resolve: (s, _a, ctx) => loadMemories(ctx, s.memoryIds ?? []),
    }),
  }),
});

async function loadMemories(ctx: GraphQLContext, ids: readonly string[]): Promise<MemoryEntry[]> {
  return (await ctx.loaders.memory.loadMany(ids)).filter((m): m is MemoryEntry => m !== null && !(m instanceof Error));
}

const successorOf = (m: MemoryEntry) => m.supersededBy ?? m.mergedInto;

// Contextual integrity (SPEC §13): where a memory was learned, and where it may be recalled.
export const MemoryOriginScopeEnum = builder.enumType('MemoryOriginScope', {
  description: 'The kind of chat a memory was learned in.',
  values: {
    PRIVATE: { value: 'private', description: 'A one-to-one chat with the person (any of their linked identities).' },
    GROUP: { value: 'group', description: 'A group chat or a room: a place of its own.' },
  } as const,
});

export const MemoryVisibilityEnum = builder.enumType('MemoryVisibility', {
  description: 'Where a memory may be recalled.',
  values: {
    ORIGIN: {
      value: 'origin',
      description:
        "Only where it was learned: a private memory in the person's private chats, a group's in that group.",
    },
    SHARED: {
      value: 'shared',
      description: 'An operator marked it shareable: recalled in every chat with its person.',
    },
  } as const,
});

const MemoryOriginType = builder.objectRef<MemoryOrigin>('MemoryOrigin').implement({
  description: 'The chat a memory was learned in.',
  fields: (t) => ({
    dialogueId: t.exposeID('dialogueId'),
    scope: t.expose('scope', { type: MemoryOriginScopeEnum }),
    dialogue: t.field({
      type: DialogueType,
      nullable: true,
      description: 'The dialogue itself; null once it was deleted.',
      resolve: (o, _a, ctx) => ctx.loaders.dialogue.load(o.dialogueId),
    }),
  }),
});

MemoryType.implement({
  fields: (t) => ({
    id: t.exposeID('_id'),
    ownerId: t.exposeID('ownerId'),
    owner: t.field({ type: AgentType, nullable: true, resolve: (m, _a, ctx) => ctx.loaders.agent.load(m.ownerId) }),
    subjectId: t.exposeID('subjectId', { nullable: true }),
    subject: t.field({
      type: HumanType,
      nullable: true,
      resolve: (m, _a, ctx) => (m.subjectId ? ctx.loaders.human.load(m.subjectId) : null),
    }),
    kind: t.expose('kind', { type: MemoryKindEnum }),
    text: t.exposeString('text'),
    origin: t.field({
      type: MemoryOriginType,
      nullable: true,
      description:
        'Where it was learned; null for memories written before origins were kept, which are treated as learned in a private chat with their person.',
      resolve: (m) => m.origin ?? null,
    }),
    visibility: t.field({
      type: MemoryVisibilityEnum,
      description:
        'ORIGIN: recalled only where it was learned (unknown origin: in private chats with its person); SHARED: in every chat with its person.',
      resolve: (m) => m.visibility ?? 'origin',
    }),
    importance: t.exposeFloat('importance'),
    occurredAt: t.field({
      type: 'DateTime',
      description: 'When it happened in the conversation.',
      resolve: (m) => m.occurredAt,
    }),
    status: t.expose('status', { type: MemoryStatusEnum }),
    supersededBy: t.field({
      type: MemoryType,
      nullable: true,
      description: 'The entry that contradicted this one.',
      resolve: (m, _a, ctx) => (m.supersededBy ? ctx.loaders.memory.load(m.supersededBy) : null),
    }),
    supersededAt: t.field({ type: 'DateTime', nullable: true, resolve: (m) => m.supersededAt ?? null }),
    mergedInto: t.field({
      type: MemoryType,
      nullable: true,
      description: 'The entry consolidation folded this one into.',
      resolve: (m, _a, ctx) => (m.mergedInto ? ctx.loaders.memory.load(m.mergedInto) : null),
    }),
    chain: t.field({
      type: [MemoryType],
      description: `The successors of this entry (supersededBy / mergedInto), in order, up to the current one (at most ${MEMORY_CHAIN_MAX}).`,
      resolve: async (m, _a, ctx) => {
        const chain: MemoryEntry[] = [];
        const seen = new Set([m._id]);
        for (let next = successorOf(m); next && !seen.has(next) && chain.length < MEMORY_CHAIN_MAX;) {
          seen.add(next);
          const entry = await ctx.loaders.memory.load(next);
          if (!entry) break;
          chain.push(entry);
          next = successorOf(entry);
        }
        return chain;
      },
    }),
    sources: t.field({ type: MemorySourcesType, resolve: (m) => m.sources }),
    recallCount: t.int({ resolve: (m) => m.recall.count }),
    lastRecalledAt: t.field({ type: 'DateTime', nullable: true, resolve: (m) => m.recall.lastAt ?? null }),
    embeddingModel: t.string({
      nullable: true,
      description: 'The embedder of the stored vector; null while it has none.',
      resolve: (m) => m.embedding?.model ?? null,
    }),
    createdAt: t.field({ type: 'DateTime', resolve: (m) => m.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (m) => m.updatedAt }),
  }),
});

interface MemoryHit {
  memory: MemoryEntry;
  score: number;
}
interface MemorySearch {
  hits: MemoryHit[];
  queries: string[];
  keywordOnly: boolean;
}

const MemoryHitType = builder.objectRef<MemoryHit>('MemoryHit').implement({
  fields: (t) => ({ memory: t.field({ type: MemoryType, resolve: (h) => h.memory }), score: t.exposeFloat('score') }),
});

const MemorySearchType = builder.objectRef<MemorySearch>('MemorySearch').implement({
  description: 'Active memories ranked as a turn’s recall ranks them.',
  fields: (t) => ({
    hits: t.field({ type: [MemoryHitType], resolve: (s) => s.hits }),
    queries: t.exposeStringList('queries', { description: 'The queries recall derived from the text.' }),
    keywordOnly: t.exposeBoolean('keywordOnly', { description: 'Embeddings were unavailable: keyword search alone.' }),
  }),
});

export const MEMORY_SEARCH_MAX = 20;
const searchInput = z.object({
  text: z
    .string()
    .trim()
    .min(1, 'search text must not be empty')
    .refine((s) => Array.from(s).length <= 500, 'search text must be at most 500 characters'),
  limit: z
    .number()
    .int()
    .min(1, 'limit must be between 1 and 20')
    .max(MEMORY_SEARCH_MAX, `limit must be between 1 and ${MEMORY_SEARCH_MAX}`),
});

async function checkScope(
  ctx: GraphQLContext,
  ownerId: string | undefined,
  subjectId: string | undefined,
): Promise<void> {
  const [owner, subject] = await Promise.all([
    ownerId ? ctx.loaders.agent.load(ownerId) : true,
    subjectId ? ctx.loaders.human.load(subjectId) : true,
  ]);
  if (!owner) throw apiError('NOT_FOUND', `no agent with id ${String(ownerId)}`);
  if (!subject) throw apiError('NOT_FOUND', `no human with id ${String(subjectId)}`);
}

const idOf = (v: string | number | null | undefined) => (v === null || v === undefined ? undefined : String(v));

builder.queryFields((t) => ({
  memories: t.connection({
    type: MemoryType,
    description: 'Memories, most recently changed first; ownerId is the agent, subjectId the human.',
    args: {
      ownerId: t.arg.id(),
      subjectId: t.arg.id(),
      status: t.arg({ type: MemoryStatusEnum }),
      kind: t.arg({ type: MemoryKindEnum }),
    },
    resolve: async (_r, args, ctx) => {
      const ownerId = idOf(args.ownerId);
      const subjectId = idOf(args.subjectId);
      await checkScope(ctx, ownerId, subjectId);
      const filter = {
        ...(ownerId ? { ownerId } : {}),
        ...(subjectId ? { subjectId } : {}),
        ...(args.status ? { status: args.status } : {}),
        ...(args.kind ? { kind: args.kind } : {}),
      };
      return keysetConnection<MemoryEntry>(ctx.store.pages.of('memories'), filter, 'updatedAt', -1, args);
    },
  }),
  searchMemories: t.field({
    type: MemorySearchType,
    description: `Semantic search of an agent's active memories (about one human when subjectId is given), at most ${MEMORY_SEARCH_MAX} hits.`,
    args: {
      ownerId: t.arg.id({ required: true }),
      subjectId: t.arg.id(),
      text: t.arg.string({ required: true }),
      limit: t.arg.int({ defaultValue: 10 }),
    },
    resolve: async (_r, args, ctx) => {
      const input = searchInput.safeParse({ text: args.text, limit: args.limit ?? 10 });
      if (!input.success) throw apiError('BAD_REQUEST', input.error.issues[0]?.message ?? 'invalid memory search');
      const ownerId = String(args.ownerId);
      const subjectId = idOf(args.subjectId);
      await checkScope(ctx, ownerId, subjectId);
      const recall = ctx.ops.recall;
      if (!recall) throw apiError('INTERNAL', 'memory search is not configured in this process');
      const r = await recall.recall({
        ownerId,
        ...(subjectId ? { subjectId } : {}),
        message: input.data.text,
        topK: input.data.limit,
        now: new Date(),
        kinds: MEMORY_KINDS,
        countRecall: false,
        waitForIndex: true, // an operator asked: the answer, however long a cold load takes
      });
      const entries = await loadMemories(
        ctx,
        r.memories.map((m) => m.id),
      );
      const byId = new Map(entries.map((e) => [e._id, e]));
      const hits = r.memories.flatMap((m) => {
        const memory = byId.get(m.id);
        return memory ? [{ memory, score: m.score }] : [];
      });
      return { hits, queries: r.queries, keywordOnly: r.degraded === 'keyword_only' };
    },
  }),
}));

recordById('memory', MemoryType, (ctx, id) => ctx.loaders.memory.load(id));
