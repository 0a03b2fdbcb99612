// Whole-dialogue mutations: delete it with everything under it (admin only, BR-006) and export
// it as a Markdown or PDF document (operator).
import { builder } from '../builder.js';
import type { DialogueDeletion } from '../../src/store/dialogueDeletion.js';
import { deleteDialogueNow } from '../../src/ops/deleteDialogue.js';
import { exportDialogue, MAX_EXPORT_MESSAGES, type DialogueExport } from '../../src/ops/exportDialogue.js';

const DeletedCountsType = builder.objectRef<DialogueDeletion['deleted']>('DeletedCounts').implement({
  description: 'Documents removed per collection.',
  fields: (t) => ({
    messages: t.exposeInt('messages'),
    archivedMessages: t.exposeInt('archivedMessages'),
    turns: t.exposeInt('turns'),
    sessions: t.exposeInt('sessions'),
    events: t.exposeInt('events'),
    memories: t.exposeInt('memories'),
  }),
});

const DialogueDeletionType = builder.objectRef<DialogueDeletion>('DialogueDeletion').implement({
  fields: (t) => ({
    found: t.exposeBoolean('found'),
    deleted: t.field({ type: DeletedCountsType, resolve: (d) => d.deleted }),
  }),
});

export const ExportFormatEnum = builder.enumType('ExportFormat', {
  values: { MARKDOWN: { value: 'markdown' }, PDF: { value: 'pdf' } } as const,
});

export const DialogueExportType = builder.objectRef<DialogueExport>('DialogueExport').implement({
  fields: (t) => ({
    fileName: t.exposeString('fileName'),
    mimeType: t.exposeString('mimeType'),
    format: t.expose('format', { type: ExportFormatEnum }),
    content: t.exposeString('content', { description: 'The Markdown text, or the PDF as base64.' }),
    byteLength: t.exposeInt('byteLength', { description: 'Size of the file (not of its base64).' }),
    messageCount: t.exposeInt('messageCount'),
  }),
});

builder.mutationFields((t) => ({
  deleteDialogue: t.field({
    type: DialogueDeletionType,
    authScopes: { admin: true },
    description:
      'Deletes the dialogue and its sessions, turns, messages, archived messages, events and memories. Waits briefly for a running reply (DIALOGUE_BUSY after that).',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, a, ctx) => deleteDialogueNow(ctx.ops, String(a.id)),
  }),
  exportDialogue: t.field({
    type: DialogueExportType,
    description: `The dialogue as a document: sessions in order, every message (archived ones included), times in the configured time zone. At most ${MAX_EXPORT_MESSAGES} messages.`,
    args: { dialogueId: t.arg.id({ required: true }), format: t.arg({ type: ExportFormatEnum, required: true }) },
    resolve: (_r, a, ctx) => exportDialogue(ctx.ops, String(a.dialogueId), a.format, new Date()),
  }),
}));
