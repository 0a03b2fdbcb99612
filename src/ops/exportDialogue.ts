// A dialogue as a document (Markdown or PDF): its sessions in order, every message of the live
// record and the archive (BR-002) merged by time, with names, display times in the configured
// zone, media in words, quotes, edits and deletions. Messages are streamed from two cursors and
// rendered one by one, so only the output is held, never the messages as well. The document
// depends on the record and `now` only (no clock read inside), so a download link can render
// the same file again later (src/ops/exportLinks.ts).
import type { Message } from '../domain/model.js';
import { GatewayError } from '../errors.js';
import {
  TranscriptBlocks,
  headerBlocks,
  timeFormatter,
  type Block,
  type ExportHeader,
} from '../export/exportBlocks.js';
import { blocksToMarkdown } from '../export/markdown.js';
import { mergeByTime } from '../export/mergeByTime.js';
import { PdfTranscript } from '../export/pdf.js';
import type { OpsDeps } from './opsDeps.js';

export const MAX_EXPORT_MESSAGES = 20_000;
/** Documents read per round trip from each cursor. */
const BATCH = 500;

export type ExportFormat = 'markdown' | 'pdf';

export interface DialogueExport {
  fileName: string;
  mimeType: string;
  format: ExportFormat;
  /** The Markdown text, or the PDF as base64. */
  content: string;
  /** Size of the file itself (UTF-8 Markdown or PDF bytes), not of its base64. */
  byteLength: number;
  messageCount: number;
}

interface Writer {
  write(blocks: readonly Block[]): void;
  finish(): Promise<{ content: string; byteLength: number }>;
}

function markdownWriter(): Writer {
  let text = '';
  return {
    write: (blocks) => {
      text += blocksToMarkdown(blocks);
    },
    finish: () => Promise.resolve({ content: text, byteLength: Buffer.byteLength(text, 'utf8') }),
  };
}

async function pdfWriter(title: string, exportedAt: Date): Promise<Writer> {
  const pdf = await PdfTranscript.create(title, exportedAt);
  return {
    write: (blocks) => pdf.write(blocks),
    finish: async () => {
      const r = await pdf.finish();
      return { content: r.base64, byteLength: r.byteLength };
    },
  };
}

export async function exportDialogue(
  deps: Pick<OpsDeps, 'store' | 'timezone'>,
  dialogueId: string,
  format: ExportFormat,
  now: Date,
  o: { visibleOnly?: boolean } = {},
): Promise<DialogueExport> {
  const { c } = deps.store;
  // A room's record is what people saw (seed 002): its invisible skips are left out.
  const which = o.visibleOnly ? { dialogueId, visible: true } : { dialogueId };
  const dialogue = await deps.store.dialogues.get(dialogueId);
  if (!dialogue) throw new GatewayError('CONVERSATION_NOT_FOUND', `no dialogue with id ${dialogueId}`);
  const [live, archived] = await Promise.all([
    c.messages.countDocuments(which),
    c.archivedMessages.countDocuments(which),
  ]);
  if (live + archived > MAX_EXPORT_MESSAGES) {
    throw new GatewayError(
      'BAD_REQUEST',
      `dialogue ${dialogueId} has ${live + archived} messages; an export holds at most ${MAX_EXPORT_MESSAGES}`,
    );
  }
  const [sessions, humans, agents] = await Promise.all([
    c.sessions.find({ dialogueId }).toArray(),
    c.humans.find({ _id: { $in: dialogue.humanIds } }).toArray(),
    c.agents.find({ _id: { $in: dialogue.agentIds } }).toArray(),
  ]);
  const names = new Map<string, string>([
    ...humans.map((h) => [h._id, h.displayName] as const),
    ...agents.map((a) => [a._id, a.name] as const),
  ]);
  const ctx = { timezone: deps.timezone, names };
  const header: ExportHeader = {
    dialogueId,
    title: dialogue.title,
    type: dialogue.type,
    chat: dialogue.chat,
    participants: [
      ...dialogue.humanIds.map((id) => ({ role: 'human' as const, id, name: names.get(id) ?? id })),
      ...dialogue.agentIds.map((id) => ({ role: 'ai' as const, id, name: names.get(id) ?? id })),
    ],
    createdAt: dialogue.createdAt,
    exportedAt: now,
    timezone: deps.timezone,
    messageCount: live + archived,
    sessionCount: sessions.length,
  };
  const title = header.title?.trim() || `Dialogue ${dialogueId}`;
  const writer = format === 'markdown' ? markdownWriter() : await pdfWriter(title, now);
  writer.write(headerBlocks(header));

  const transcript = new TranscriptBlocks(sessions, ctx);
  const ordered = { sort: { createdAt: 1, _id: 1 } as const, batchSize: BATCH };
  // The archive holds the same shape plus archivedAt, which the transcript does not show.
  const messages = mergeByTime<Message>(c.messages.find(which, ordered), c.archivedMessages.find(which, ordered));
  let messageCount = 0;
  for await (const m of messages) {
    // Written meanwhile past the cap (counted above): stop rather than grow without bound.
    if (messageCount === MAX_EXPORT_MESSAGES) {
      writer.write([{ kind: 'mark', text: `export stopped at ${MAX_EXPORT_MESSAGES} messages` }]);
      break;
    }
    writer.write(transcript.of(m));
    messageCount++;
  }
  const { content, byteLength } = await writer.finish();
  const day = timeFormatter(deps.timezone)(now).slice(0, 10);
  const extension = format === 'markdown' ? 'md' : 'pdf';
  return {
    fileName: `dialogue-${dialogueId}-${day}.${extension}`,
    mimeType: format === 'markdown' ? 'text/markdown; charset=utf-8' : 'application/pdf',
    format,
    content,
    byteLength,
    messageCount,
  };
}
