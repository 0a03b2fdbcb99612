import { builder } from '../builder.js';
import type { ChatRef, Dialogue, Session } from '../../src/domain/model.js';
import { childConnection, keysetConnection } from '../pagination.js';
import { recordById } from '../byId.js';
import { DialogueStatusEnum, DialogueTypeEnum, PlatformEnum } from './enums.js';
import { dialogueFilter, dialogueFilterArgs, sessionFilter, sessionFilterArgs } from './queryFilters.js';
import { SessionType } from './session.js';
import { MessageType } from './message.js';

const ChatRefType = builder.objectRef<ChatRef>('ChatRef').implement({
  fields: (t) => ({
    platform: t.expose('platform', { type: PlatformEnum }),
    chatId: t.exposeString('chatId'),
    threadId: t.exposeString('threadId', { nullable: true }),
  }),
});

export const DialogueType = builder.objectRef<Dialogue>('Dialogue').implement({
  fields: (t) => ({
    id: t.exposeID('_id'),
    type: t.expose('type', { type: DialogueTypeEnum }),
    chat: t.field({ type: ChatRefType, resolve: (d) => d.chat }),
    humanIds: t.exposeStringList('humanIds'),
    agentIds: t.exposeStringList('agentIds'),
    title: t.exposeString('title', { nullable: true }),
    status: t.expose('status', { type: DialogueStatusEnum }),
    messageCount: t.exposeInt('messageCount'),
    lastActivityAt: t.field({ type: 'DateTime', resolve: (d) => d.lastActivityAt }),
    createdAt: t.field({ type: 'DateTime', resolve: (d) => d.createdAt }),
    sessions: t.connection({
      type: SessionType,
      description: 'Sessions in start order; kind, status and a window on startedAt filter them.',
      args: sessionFilterArgs,
      resolve: (d, args, ctx) =>
        childConnection<Session>(
          ctx.loaders,
          {
            collection: 'sessions',
            parentField: 'dialogueId',
            parentId: d._id,
            filter: sessionFilter(args),
            field: 'startedAt',
            direction: 1,
          },
          args,
        ),
    }),
  }),
});

builder.queryFields((t) => ({
  dialogues: t.connection({
    type: DialogueType,
    description: 'All dialogues, most recently active first; since/until bound lastActivityAt.',
    args: dialogueFilterArgs,
    resolve: (_root, args, ctx) =>
      keysetConnection(ctx.store.pages.of('dialogues'), dialogueFilter(args), 'lastActivityAt', -1, args),
  }),
}));

recordById('dialogue', DialogueType, (ctx, id) => ctx.store.dialogues.get(id));
recordById('message', MessageType, (ctx, id) => ctx.store.messages.get(id));
