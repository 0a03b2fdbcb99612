import { builder } from '../builder.js';
import type { Delivery, Message, PlatformRef } from '../../src/domain/model.js';
import { ContentTypeEnum, DeliveryStateEnum, PlatformEnum, RoleEnum } from './enums.js';
import { AttachmentType, MessageEditType, QuoteType } from './messageMedia.js';

const PlatformRefType = builder.objectRef<PlatformRef>('PlatformRef').implement({
  fields: (t) => ({
    platform: t.expose('platform', { type: PlatformEnum }),
    chatId: t.exposeString('chatId'),
    messageId: t.exposeString('messageId'),
  }),
});

const DeliveryErrorType = builder.objectRef<{ code: string; message: string }>('DeliveryError').implement({
  fields: (t) => ({ code: t.exposeString('code'), message: t.exposeString('message') }),
});

const DeliveryType = builder.objectRef<Delivery>('Delivery').implement({
  fields: (t) => ({
    state: t.expose('state', { type: DeliveryStateEnum }),
    platformMessageIds: t.exposeStringList('platformMessageIds'),
    error: t.field({ type: DeliveryErrorType, nullable: true, resolve: (d) => d.error ?? null }),
    completedAt: t.field({ type: 'DateTime', nullable: true, resolve: (d) => d.completedAt ?? null }),
  }),
});

export const MessageType = builder.objectRef<Message>('Message').implement({
  fields: (t) => ({
    id: t.exposeID('_id'),
    dialogueId: t.exposeID('dialogueId'),
    sessionId: t.exposeID('sessionId'),
    turnId: t.exposeID('turnId', { nullable: true }),
    senderRole: t.expose('senderRole', { type: RoleEnum }),
    senderId: t.exposeString('senderId'),
    contentType: t.expose('contentType', { type: ContentTypeEnum }),
    content: t.exposeString('content'),
    contentMeta: t.field({ type: 'JSON', nullable: true, resolve: (m) => m.contentMeta ?? null }),
    attachments: t.field({ type: [AttachmentType], resolve: (m) => m.contentMeta?.attachments ?? [] }),
    quote: t.field({ type: QuoteType, nullable: true, resolve: (m) => m.contentMeta?.quote ?? null }),
    edits: t.field({ type: [MessageEditType], resolve: (m) => m.edits ?? [] }),
    deletedAt: t.field({ type: 'DateTime', nullable: true, resolve: (m) => m.deleted?.at ?? null }),
    mentions: t.exposeStringList('mentions'),
    replyTo: t.exposeID('replyTo', { nullable: true }),
    visible: t.exposeBoolean('visible'),
    platformRef: t.field({ type: PlatformRefType, nullable: true, resolve: (m) => m.platformRef ?? null }),
    delivery: t.field({ type: DeliveryType, nullable: true, resolve: (m) => m.delivery ?? null }),
    rejectedCode: t.string({ nullable: true, resolve: (m) => m.rejected?.code ?? null }),
    rejectedReason: t.string({
      nullable: true,
      description:
        'Why a sender was refused (SPEC §14): not_admitted, blocked, budget or moderation; null for refused content (BR-001) and accepted messages.',
      resolve: (m) => m.rejected?.reason ?? null,
    }),
    sentAt: t.field({ type: 'DateTime', nullable: true, resolve: (m) => m.sentAt ?? null }),
    createdAt: t.field({ type: 'DateTime', resolve: (m) => m.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (m) => m.updatedAt }),
    archivedAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When the message left the live record (BR-002; reached through search or export).',
      resolve: (m) => ('archivedAt' in m && m.archivedAt instanceof Date ? m.archivedAt : null),
    }),
  }),
});
