// Typed views of a message's media, quote and edit history, so an operator can see at a glance
// which attachment failed to transcribe or describe, why, and when it is retried.
import { builder } from '../builder.js';
import { ATTACHMENT_KINDS, type Attachment, type MessageEdit, type Quote } from '../../src/domain/model.js';
import { RoleEnum } from './enums.js';

export const AttachmentKindEnum = builder.enumType('AttachmentKind', {
  values: ATTACHMENT_KINDS,
});
export const AttachmentStateEnum = builder.enumType('AttachmentState', {
  values: ['pending', 'done', 'failed', 'unsupported'] as const,
});

export const AttachmentType = builder.objectRef<Attachment>('Attachment').implement({
  description: 'One media item of a message and how turning it into text went.',
  fields: (t) => ({
    kind: t.expose('kind', { type: AttachmentKindEnum }),
    fileName: t.exposeString('fileName', { nullable: true }),
    mime: t.exposeString('mime', { nullable: true }),
    size: t.exposeInt('size', { nullable: true }),
    duration: t.exposeFloat('duration', { nullable: true }),
    sourceMessageId: t.exposeString('sourceMessageId'),
    state: t.field({ type: AttachmentStateEnum, resolve: (a) => a.processing.state }),
    attempts: t.int({ resolve: (a) => a.processing.attempts }),
    /** Description, transcription or extracted text. */
    text: t.string({ nullable: true, resolve: (a) => a.processing.text ?? null }),
    via: t.string({ nullable: true, resolve: (a) => a.processing.via ?? null }),
    errorCode: t.string({ nullable: true, resolve: (a) => a.processing.error?.code ?? null }),
    errorMessage: t.string({ nullable: true, resolve: (a) => a.processing.error?.message ?? null }),
    nextAttemptAt: t.field({ type: 'DateTime', nullable: true, resolve: (a) => a.processing.nextAttemptAt ?? null }),
  }),
});

export const QuoteType = builder.objectRef<Quote>('Quote').implement({
  description: 'The message a quote_reply points at, as inlined for the model.',
  fields: (t) => ({
    messageId: t.exposeID('messageId', { nullable: true }),
    platformMessageId: t.exposeString('platformMessageId'),
    senderRole: t.field({ type: RoleEnum, nullable: true, resolve: (q) => q.senderRole ?? null }),
    senderName: t.exposeString('senderName', { nullable: true }),
    text: t.exposeString('text'),
    partial: t.boolean({ resolve: (q) => q.partial === true }),
  }),
});

export const MessageEditType = builder.objectRef<MessageEdit>('MessageEdit').implement({
  description: 'An earlier version of an edited message.',
  fields: (t) => ({
    content: t.exposeString('content'),
    editedAt: t.field({ type: 'DateTime', resolve: (e) => e.editedAt }),
  }),
});
