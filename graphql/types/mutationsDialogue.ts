// Whole-dialogue mutations: delete it with everything under it (admin only, BR-006) and export
// it as a Markdown or PDF document (operator).
import { builder } from '../builder.js';
import type { DialogueDeletion } from '../../src/store/dialogueDeletion.js';
import { deleteDialogueNow } from '../../src/ops/deleteDialogue.js';
import { MAX_EXPORT_MESSAGES } from '../../src/ops/exportDialogue.js';
import { exportWithLink, type LinkedExport } from '../../src/ops/exportLinks.js';

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

export const DialogueExportType = builder.objectRef<LinkedExport>('DialogueExport').implement({
  fields: (t) => ({
    fileName: t.exposeString('fileName'),
    mimeType: t.exposeString('mimeType'),
    format: t.expose('format', { type: ExportFormatEnum }),
    downloadUrl: t.exposeString('downloadUrl', {
      description:
        'Signed link that downloads this file (GET, no token needed) until expiresAt; anyone holding it can read the export. Points at the host and scheme this request came in on.',
    }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', description: 'When downloadUrl stops working (410).' }),
    content: t.exposeString('content', {
      description: 'The Markdown text, or the PDF as base64 (kept for older clients; downloadUrl gives the file).',
    }),
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
    resolve: (_r, a, ctx) =>
      exportWithLink(ctx.ops, {
        dialogueId: String(a.dialogueId),
        format: a.format,
        now: new Date(),
        baseUrl: ctx.baseUrl,
      }),
  }),
}));
