// Links between the record's levels, each resolved through the per-request loaders so a list
// of parents costs one round trip per relation, not one per parent.
import type DataLoader from 'dataloader';
import { builder } from '../builder.js';
import type { Agent, Dialogue, Human, Message, Session, Turn } from '../../src/domain/model.js';
import type { Loaders } from '../loaders.js';
import { childConnection } from '../pagination.js';
import { apiError } from '../errors.js';
import { DialogueType } from './dialogue.js';
import { SessionType } from './session.js';
import { TurnType } from './turn.js';
import { MessageType } from './message.js';
import { AgentType, HumanType } from './participants.js';
import { messageFilter, messageFilterArgs } from './queryFilters.js';

async function loadAll<T extends object>(loader: DataLoader<string, T | null>, ids: readonly string[]): Promise<T[]> {
  return (await loader.loadMany(ids)).filter((x): x is T => x !== null && !(x instanceof Error));
}

/** A parent the record references must exist; a dangling reference is a NOT_FOUND, not a crash. */
async function must<T>(p: Promise<T | null>, what: string, id: string): Promise<T> {
  const v = await p;
  if (!v) throw apiError(what === 'dialogue' ? 'CONVERSATION_NOT_FOUND' : 'NOT_FOUND', `no ${what} with id ${id}`);
  return v;
}

/** The dialogue's current session, else its most recently started one (one batched query for many dialogues). */
export async function latestSessionOf(
  loaders: Loaders,
  d: Pick<Dialogue, '_id' | 'currentSessionId'>,
): Promise<Session | null> {
  if (d.currentSessionId) {
    const current = await loaders.session.load(d.currentSessionId);
    if (current) return current;
  }
  const [latest] = await loaders.children.load({
    collection: 'sessions',
    parentField: 'dialogueId',
    parentId: d._id,
    query: {},
    sort: { startedAt: -1, _id: -1 },
    limit: 1,
  });
  return (latest as Session | undefined) ?? null;
}

builder.objectFields(DialogueType, (t) => ({
  humans: t.field({ type: [HumanType], resolve: (d, _a, ctx) => loadAll<Human>(ctx.loaders.human, d.humanIds) }),
  agents: t.field({ type: [AgentType], resolve: (d, _a, ctx) => loadAll<Agent>(ctx.loaders.agent, d.agentIds) }),
  latestSession: t.field({
    type: SessionType,
    nullable: true,
    description: 'The current session (the one new messages join), else the most recently started one.',
    resolve: (d, _a, ctx) => latestSessionOf(ctx.loaders, d),
  }),
  messages: t.connection({
    type: MessageType,
    description:
      'The dialogue’s live messages (archived ones excluded) in time order; filter by sender role, content type, window on createdAt.',
    args: messageFilterArgs,
    resolve: (d, args, ctx) =>
      childConnection<Message>(
        ctx.loaders,
        {
          collection: 'messages',
          parentField: 'dialogueId',
          parentId: d._id,
          filter: messageFilter(args),
          field: 'createdAt',
          direction: 1,
        },
        args,
      ),
  }),
}));

builder.objectFields(SessionType, (t) => ({
  dialogue: t.field({
    type: DialogueType,
    resolve: (s, _a, ctx) => must(ctx.loaders.dialogue.load(s.dialogueId), 'dialogue', s.dialogueId),
  }),
}));

builder.objectFields(TurnType, (t) => ({
  session: t.field({
    type: SessionType,
    resolve: (x, _a, ctx) => must(ctx.loaders.session.load(x.sessionId), 'session', x.sessionId),
  }),
  dialogue: t.field({
    type: DialogueType,
    resolve: (x, _a, ctx) => must(ctx.loaders.dialogue.load(x.dialogueId), 'dialogue', x.dialogueId),
  }),
}));

builder.objectFields(MessageType, (t) => ({
  turn: t.field({
    type: TurnType,
    nullable: true,
    description: 'Absent for messages outside any turn (a refused input and its notice, unaddressed group messages).',
    resolve: (m, _a, ctx): Promise<Turn | null> => (m.turnId ? ctx.loaders.turn.load(m.turnId) : Promise.resolve(null)),
  }),
  session: t.field({
    type: SessionType,
    resolve: (m, _a, ctx) => must(ctx.loaders.session.load(m.sessionId), 'session', m.sessionId),
  }),
  dialogue: t.field({
    type: DialogueType,
    resolve: (m, _a, ctx) => must(ctx.loaders.dialogue.load(m.dialogueId), 'dialogue', m.dialogueId),
  }),
}));
